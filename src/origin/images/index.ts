/** Uploaded images: checked, processed with sharp, stored under DATA_DIR and in the `images` table, served by name. */
export { IMAGE_DEFAULTS, ImageLibrary, imageLookup, type ImageOptions, type UploadedImage } from './library.js';
export { registerImageRoutes, registerImagesDesk, type ImageRouteDeps } from './routes.js';
export { POST_IMAGE_SIZES, responsiveImage, type ResponsiveImage, type StoredImage } from './responsive.js';
export { processImage, type ProcessedImage, type ProcessOptions } from './process.js';
export {
  CONTENT_TYPES, IMAGE_FORMATS, IMAGE_PREFIX, IMAGE_TYPES, IMMUTABLE, fallbackFormat, imageFileName, imageOfUrl, imageUrl, parseImageName, sniffImageType,
  widthsFor, type ImageFormat, type ImageName, type ImageType,
} from './names.js';
