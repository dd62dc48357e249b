// bench_train_main.js — appended to attn_bench_train.js (--extern-post-js): run as a program
// (`node attn_bench_train.js --steps 300`), the module runs main with the command line; required as a
// module (train_bench.mjs), it only exports its factory.
if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) createAttnBenchTrain();
