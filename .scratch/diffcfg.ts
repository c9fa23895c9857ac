import { DEFAULT_CONFIG, mergeConfig } from '/work/main/harness/config.ts';
import { readFileSync } from 'node:fs';
const f = mergeConfig(DEFAULT_CONFIG, JSON.parse(readFileSync('/work/main/configs/default.json','utf8')));
const walk = (a: any, b: any, p: string) => { if (JSON.stringify(a) === JSON.stringify(b)) return; if (a && b && typeof a === 'object' && !Array.isArray(a)) { for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], p + '.' + k); } else console.log(p, JSON.stringify(a), '=>', JSON.stringify(b)); };
walk(DEFAULT_CONFIG, f, '');
