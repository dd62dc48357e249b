// touch-phone.test.mjs — a phone: 390×844 CSS pixels, touch only, device pixel ratio 3 (touch_suite.mjs).
import { touchSuite } from './touch_suite.mjs';

touchSuite({ width: 390, height: 844 });
