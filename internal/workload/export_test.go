package workload

// LoopbackServerGrace is loopbackServerGrace, for the external tests.
const LoopbackServerGrace = loopbackServerGrace
