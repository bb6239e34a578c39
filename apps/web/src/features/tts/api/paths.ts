/**
 * The text-to-speech calls under the API base. Spec §7 fixes the first four; the others are the
 * backend's (docs/tts.md), gathered here so one place follows a change of path.
 */
export const ttsPaths = {
  soundList: "/new_tts/labs/get_sound_list",
  selectOptions: "/new_tts/labs/select_options",
  tryListen: "/new_tts/labs/try_listen",
  start: "/tts/start_tts",
  progress: "/tts/get_progress",
  task: "/tts/get_task",
  works: "/tts/task_list",
  rename: "/tts/rename",
  remove: "/tts/delete",
  quota: "/tts/quota",
  /** the caller's own voices (the voice pages' list): a ready one may read the text */
  myVoices: "/voice/my_voice/list",
  /** sung and converted songs (the voice pages' works), listed with 'my works' */
  songWorks: "/voice/works/list",
} as const;
