/** Chinese (the default language): the login dialog. */
export const session = {
  loginDialog: {
    title: "登录悦录",
  },
};
