import type { satisfaction as zh } from "../zh/satisfaction.ts";

export const satisfaction: typeof zh = {
  satisfaction: {
    title: "Were you happy with this transcript?",
    subtitle: "Your feedback helps us recognise speech better",
    rating1: "Very unhappy",
    rating2: "Unhappy",
    rating3: "So-so",
    rating4: "Happy",
    rating5: "Very happy",
    commentLabel: "Anything else to tell us (optional)",
    commentPlaceholder: "What was good, what could be better",
    submit: "Send rating",
    sending: "Sending…",
    failed: "Your rating was not saved: {{reason}} Please try again later.",
    thanks: "Thank you for your feedback!",
  },
};
