/** The nickname the server gives a new account: '用户' and the phone's last four digits. */
const DEFAULT_NICKNAME = /^用户(\d{4})$/;

/**
 * The nickname to show. The server stores the default one in Chinese ('用户1234'); an English UI
 * shows it as 'User 1234'. A nickname the user chose is theirs and is shown as it is.
 */
export function displayNickname(nickName: string, lang: string): string {
  const match = DEFAULT_NICKNAME.exec(nickName);
  return match && lang === "en" ? `User ${match[1]}` : nickName;
}
