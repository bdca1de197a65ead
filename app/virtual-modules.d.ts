/** The URL of the public pages' script (vite-plugins/public-enhancement.ts). */
declare module "virtual:public-enhancement" {
  const url: string;
  export default url;
}
