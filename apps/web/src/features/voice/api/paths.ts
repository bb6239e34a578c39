/**
 * The voice calls under the API base (my voice, AI singing, song voice conversion; contracts'
 * voice.ts), gathered here so one place follows a change of path. The library's voice list is the
 * text-to-speech one, asked for here too (a feature does not import another).
 */
export const voicePaths = {
  createVoice: "/voice/my_voice/create",
  retrainVoice: "/voice/my_voice/retrain",
  voices: "/voice/my_voice/list",
  voice: "/voice/my_voice/get",
  voiceProgress: "/voice/my_voice/progress",
  renameVoice: "/voice/my_voice/rename",
  deleteVoice: "/voice/my_voice/delete",
  tunes: "/voice/tunes",
  capabilities: "/voice/capabilities",
  quota: "/voice/quota",
  sing: "/voice/sing/create",
  convert: "/voice/convert/create",
  works: "/voice/works/list",
  workProgress: "/voice/works/progress",
  renameWork: "/voice/works/rename",
  deleteWorks: "/voice/works/delete",
  library: "/new_tts/labs/get_sound_list",
} as const;
