package zmq.util;

/** Test shim: the marker JeroMQ's tests put on tests that Android can't run; it has no effect. */
public @interface AndroidProblematic {
}
