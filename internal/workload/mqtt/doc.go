// Package mqtt holds the mqtt.pub workload, the seed studies' MQTT broker
// benchmark: publisher clients outside the environment under test load a
// broker inside it, as the seed's krylovsk/mqtt-benchmark loaded mosquitto
// on the board.
//
// The server side (workload.ClientServer.Serve) starts the real mosquitto
// of the host with a configuration written for the run, or, where
// mosquitto is absent or asked for with broker: embedded, this package's
// own small MQTT 3.1.1 broker (Broker), and says in a note which one ran.
// It keeps one MQTT connection of its own to the broker, subscribed to
// boxtax/control/end: the client publishes there when its session is over,
// and the server stops and reaps the broker.
//
// The client side (Client) is this package's own MQTT 3.1.1 client: each
// publisher has a connection of its own and a PUBLISH packet built once,
// whose packet id and time stamp are rewritten in place, so publishing
// allocates nothing; latencies go into allocation-free histograms. By
// default a publisher waits for each acknowledgement before its next
// publish, as mqtt-benchmark does (paho's token.Wait after each Publish);
// inflight > 1 keeps a window of unacknowledged publishes instead.
package mqtt
