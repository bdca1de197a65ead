/** Every dashboard message of SPEC §8 (and §5), with its exact words. */
export const MSG = {
  loginError: "An error occurred during login. Please contact your site administrator.",
  logoutError: "An error occurred during logout. Please contact your site administrator.",
  teamAdded: (name: string) => `${name} has been added successfully`,
  teamAddError: "Error adding team member. Please try again later.",
  teamUpdated: (name: string) => `${name} updated successfully`,
  updateError: "An error occurred. Please try again later.",
  teamLoadError: "An error occurred retrieving the team member. Please try again later.",
  articleAdded: "Article has been added successfully.",
  articleAddError: "Error adding article. Please try again later.",
  articleUpdated: "Article was updated successfully.",
  articleLoadError: "An error occurred retrieving the article. Please try again later.",
  missingFields: "Missing required fields.",
  articleImageRequired: "Please upload an article image.",
  imageUploadError: "An error occurred. Please try again later.",
  staffIncomplete: "Please fill out all fields for the new support staff member.",
  hoursUpdated: "Hours updated successfully!",
  hoursError: "An error occurred while updating hours. Please try again.",
  hoursBlank: "Start and end times cannot be blank",
  headerUpdated: (name: string) => `Header for ${name} page has been updated successfully.`,
  headerError: (name: string) => `Error updating header for ${name} page. Please try again.`,
  deleteConfirm: "Are you sure you want to delete this?",
  // Not in the spec (the original only logged these); same tone as its other messages.
  teamDeleted: (name: string) => `${name} has been deleted successfully`,
  teamDeleteError: "Error deleting team member. Please try again later.",
  articleDeleted: "Article has been deleted successfully.",
  articleDeleteError: "Error deleting article. Please try again later.",
  checkFields: "Please correct the highlighted fields.",
  chooseImageAgain: "Choose the picture again: a file cannot be kept when the form is sent back.",
  tooLarge: "The upload is too large: the picture may be at most 10 MB. Choose a smaller picture and try again.",
  unreadableForm: "The form could not be read. Please try again.",
  pictureStoreDown: "The picture storage is not answering, so nothing was saved. Everything you typed is kept: try again in a few minutes.",
  forbidden: "You do not have permission to do this. Ask an owner or admin of the site.",
} as const;

export type StatusTone = "success" | "error";
export type Status = { tone: StatusTone; text: string };

/** Pictures: the same limit as the server (app/.server/pictures/images.ts). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const IMAGE_ACCEPT = "image/jpeg,image/png,image/webp,image/avif";
/** What a picture field accepts (its hint), and its message when the chosen file is larger. */
export const IMAGE_FORMATS_TEXT = "JPEG, PNG, WebP or AVIF, at most 10 MB.";
export const IMAGE_TOO_LARGE = "The picture is larger than 10 MB. Choose a smaller file.";
