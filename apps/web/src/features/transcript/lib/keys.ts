/** The lines' own buttons: their time and their text. Space on them plays or pauses, as on the page. */
const LINE_BUTTONS = ".segment-time, .segment-text";

/**
 * Whether the space bar plays or pauses the recording (issue 43), given what has the focus: not while typing
 * (a field, an editable box), not on the player itself (its controls take the space), not in a dialog or a
 * popover, and not on a control that space works (a button, a checkbox, a tab) — except a line's own time
 * and text, which a click has just focused.
 */
export function spaceTogglesPlayback(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return true;
  if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|AUDIO|VIDEO)$/.test(target.tagName)) return false;
  if (target.closest("[role=dialog], [role=alertdialog], [data-radix-popper-content-wrapper]")) return false;
  if (target.matches(LINE_BUTTONS)) return true;
  if (/^(BUTTON|A|SUMMARY)$/.test(target.tagName)) return false;
  const role = target.getAttribute("role");
  return !role || !/^(button|link|tab|checkbox|radio|switch|menuitem|option|slider|combobox|textbox)$/.test(role);
}
