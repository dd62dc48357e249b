// touch-tablet.test.mjs — a tablet: 768×1024 CSS pixels, touch only, device pixel ratio 3 (touch_suite.mjs).
import { touchSuite } from './touch_suite.mjs';

touchSuite({ width: 768, height: 1024 });
