// touch-phone.test.mjs — a phone: 390×844 CSS pixels, touch only, device pixel ratio 3 (touch_suite.mjs).
// wcag: 2.5.1 — two-finger scrolling has a one-finger way: a swipe scrolls the stacked panels (touch_suite.mjs)
import { touchSuite } from './touch_suite.mjs';

touchSuite({ width: 390, height: 844 });
