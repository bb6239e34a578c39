import type { FeedbackCategory } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import { categoryTree, checkFeedback, imageProblem } from "./feedback-rules.ts";

const CATEGORIES: FeedbackCategory[] = [
  { id: 1, name: "功能建议", parentId: 0, level: 0 },
  { id: 2, name: "问题反馈", parentId: 0, level: 0 },
  { id: 21, name: "转写不准确", parentId: 2, level: 1 },
  { id: 22, name: "上传失败", parentId: 2, level: 1 },
];

describe("feedback", () => {
  const tree = categoryTree(CATEGORIES);

  it("builds the tree: level-0 parents with their children", () => {
    expect(tree.map((n) => [n.category.id, n.children.map((c) => c.id)])).toEqual([
      [1, []],
      [2, [21, 22]],
    ]);
  });

  it("needs a category (a child when the parent has some) and a description; limits the lengths", () => {
    const empty = checkFeedback({ parentId: null, childId: null, content: " ", contact: "" }, tree);
    expect(empty.problems).toEqual({ category: "category", content: "content" });
    expect(checkFeedback({ parentId: 2, childId: null, content: "x", contact: "" }, tree).problems).toEqual({
      category: "subCategory",
    });
    expect(checkFeedback({ parentId: 2, childId: 22, content: "x", contact: "" }, tree)).toEqual({
      problems: {},
      categoryId: 22,
    });
    expect(checkFeedback({ parentId: 1, childId: null, content: "x", contact: "" }, tree).categoryId).toBe(1);
    const long = checkFeedback(
      { parentId: 1, childId: null, content: "字".repeat(2001), contact: "9".repeat(101) },
      tree,
    );
    expect(long.problems).toEqual({ content: "contentTooLong", contact: "contactTooLong" });
  });

  it("takes images only, at most 5 MB each and 3 in all", () => {
    expect(imageProblem({ type: "image/png", size: 1000 }, 0)).toBeNull();
    expect(imageProblem({ type: "image/webp", size: 5 * 1024 * 1024 }, 2)).toBeNull();
    expect(imageProblem({ type: "application/pdf", size: 1000 }, 0)).toBe("notImage");
    expect(imageProblem({ type: "image/svg+xml", size: 1000 }, 0)).toBe("notImage");
    expect(imageProblem({ type: "image/jpeg", size: 5 * 1024 * 1024 + 1 }, 0)).toBe("tooLarge");
    expect(imageProblem({ type: "image/gif", size: 10 }, 3)).toBe("tooMany");
  });
});
