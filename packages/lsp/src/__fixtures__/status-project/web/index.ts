export const page = "home";
