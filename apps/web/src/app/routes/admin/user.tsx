import { useParams } from "react-router-dom";
import { UserDetail } from "@/features/admin/components/user-detail.tsx";

/** /admin/users/:userId: one user. */
export default function AdminUserPage() {
  const { userId } = useParams();
  const id = Number(userId);
  return <UserDetail key={id} userId={Number.isSafeInteger(id) && id > 0 ? id : 0} />;
}
