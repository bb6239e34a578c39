import { CheckinPanel } from "@/features/checkin/components/checkin-panel.tsx";
import { RewardDialog } from "@/features/rewards/components/reward-dialog.tsx";

/** The reward dialog with the check-in feature's calendar in its first tab (features never import each other). */
export default function ComposedRewardDialog() {
  return <RewardDialog checkin={<CheckinPanel />} />;
}
