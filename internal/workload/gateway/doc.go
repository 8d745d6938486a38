// Package gateway holds the http.gateway workload: an IoT device gateway
// under HTTP load, as the LinkSmart Device Gateway benchmark of seed 000
// (Krylovskiy 2015, Fig. 2), where ApacheBench fetched the latest reading of
// a sensor, 52 bytes of SenML JSON, with 1 to 150 concurrent clients.
//
// The server side runs in the environment under test: a gateway written in
// Go on net/http, as LinkSmart's is, whose device agent keeps the latest
// reading of a sensor (simulated, read from a file, or the output of a
// command) and serves it at GET /rest/iam/reading as SenML JSON.
//
// The client side stands outside and loads it: a load generator of its own
// (loadgen.go, eventloop.go) built as wrk is: a few OS threads, each an
// epoll loop over its share of the connections with non-blocking system
// calls, the request bytes prebuilt and a minimal response parser
// (response.go), latencies counted in allocation-free histograms, so that
// it costs about what wrk costs and is not what limits the requests per
// second. Every connection is a closed loop: it sends a request, waits for
// the whole response and sends the next (as ab and wrk); with keep-alive
// off each request opens a connection of its own, as ab without -k.
//
// The session: before loading, the client opens one extra connection and
// asks GET /boxtax/session, which the gateway holds open; when the client
// closes it (or dies), the gateway's session is over and it ends. Failures
// are data: refused and reset connections, timeouts and non-2xx answers are
// counted as errors, never end the run early.
package gateway
