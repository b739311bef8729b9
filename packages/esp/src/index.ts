// @layerbench/esp: IPsec ESP (RFC 4303) with AES-CBC (RFC 3602) and
// HMAC-SHA1-96 (RFC 2404), stitched or split, over swappable aes-core and
// sha1-dispatch layers.
export { createEspSa, pipelines } from './sa.js';
export type { EspSa, EspSaOptions, EspComposition, EspDirection, OpenedPacket } from './sa.js';
export { EspError } from './errors.js';
export { DestroyedError, EnvironmentValueError, ImplementationError } from './layer-shared.generated.js';
export type { LayerErrorCode } from './layer-shared.generated.js';
export type { EspErrorCode } from './errors.js';
export { ReplayWindow, DEFAULT_REPLAY_WINDOW, MAX_REPLAY_WINDOW } from './replay-window.js';
export { counterIvSource, randomIvSource } from './iv-source.js';
export type { IvSource } from './iv-source.js';
export {
  ESP_COMPOSITION_ENV,
  MEASURED,
  defaultComposition,
  describeDispatch,
  resetDispatch,
  resetEspDispatch,
} from './composition.js';
export type { MeasuredComposition, DefaultComposition } from './composition.js';
export type { PipelineName, PipelineDefinition, SealPipeline } from './pipeline.js';
export { ICV_BYTES } from './pipeline.js';
