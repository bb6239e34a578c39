import { api } from "@/lib/api-client.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

export interface FeedbackInput {
  categoryId: number;
  content: string;
  contact: string;
  images: File[];
}

/** feedback/add: multipart, the screenshots as `images` (the server checks their content and size again). */
export function useAddFeedback() {
  return useSubmitMutation({
    mutationFn: (input: FeedbackInput) => {
      const form = new FormData();
      form.append("categoryId", String(input.categoryId));
      form.append("content", input.content.trim());
      if (input.contact.trim()) form.append("contact", input.contact.trim());
      form.append("source", "0");
      for (const image of input.images) form.append("images", image, image.name);
      return api<{ id: number; images: number }>("/feedback/add", { method: "POST", form });
    },
  });
}
