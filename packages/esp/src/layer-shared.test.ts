// This layer's copy of layer-shared (argument checks, constant-time compare,
// typed errors): current, and passing the shared tests.
import { testLayerShared } from '../../../layer-shared/layer-shared.tests.ts';
import * as shared from './layer-shared.generated.js';

testLayerShared(shared);
