import type { FeedbackCategory } from "@yuelu/contracts";
import {
  FEEDBACK_CONTACT_MAX,
  FEEDBACK_IMAGE_BYTES,
  FEEDBACK_IMAGES_MAX,
  FEEDBACK_TEXT_MAX,
} from "@yuelu/contracts/constants";

/** Spec §3 Feedback category tree: the level-0 parents, in order, each with its children. */
export interface CategoryNode {
  category: FeedbackCategory;
  children: FeedbackCategory[];
}

export function categoryTree(categories: FeedbackCategory[]): CategoryNode[] {
  return categories
    .filter((c) => c.level === 0)
    .map((parent) => ({
      category: parent,
      children: categories.filter((c) => c.level !== 0 && c.parentId === parent.id),
    }));
}

/** The images the server takes (by content; here by the browser's type), at most 5 MB each and 3 in all. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

export type ImageProblem = "notImage" | "tooLarge" | "tooMany";

/** Why `file` cannot be attached after `attached` others, or null. */
export function imageProblem(file: Pick<File, "type" | "size">, attached: number): ImageProblem | null {
  if (attached >= FEEDBACK_IMAGES_MAX) return "tooMany";
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return "notImage";
  if (file.size > FEEDBACK_IMAGE_BYTES) return "tooLarge";
  return null;
}

export interface FeedbackDraft {
  parentId: number | null;
  childId: number | null;
  content: string;
  contact: string;
}

export type FeedbackProblem = "category" | "subCategory" | "content" | "contentTooLong" | "contactTooLong";

/**
 * What keeps the report from being sent (the first problem per field), and the category it files
 * under: the chosen child when the parent has children (then one is required), else the parent.
 */
export function checkFeedback(
  draft: FeedbackDraft,
  tree: CategoryNode[],
): { problems: Partial<Record<"category" | "content" | "contact", FeedbackProblem>>; categoryId: number | null } {
  const problems: Partial<Record<"category" | "content" | "contact", FeedbackProblem>> = {};
  const node = tree.find((n) => n.category.id === draft.parentId);
  let categoryId: number | null = null;
  if (!node) problems.category = "category";
  else if (node.children.length === 0) categoryId = node.category.id;
  else if (node.children.some((c) => c.id === draft.childId)) categoryId = draft.childId;
  else problems.category = "subCategory";
  const content = draft.content.trim();
  if (content === "") problems.content = "content";
  else if (content.length > FEEDBACK_TEXT_MAX) problems.content = "contentTooLong";
  if (draft.contact.trim().length > FEEDBACK_CONTACT_MAX) problems.contact = "contactTooLong";
  return { problems, categoryId };
}
