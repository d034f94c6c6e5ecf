/**
 * Programs in the shape of the ZeroMQ Guide's Java examples, written against JeroMQ 0.6.0's public API
 * ({@code org.zeromq}) and nothing else. They build and run unchanged on JeroMQ's jar and on {@code zmtp-jeromq};
 * the module's tests compile these same files against JeroMQ 0.6.0 and run them on both.
 *
 * <p>One scenario per package: {@code hello} (hwserver/hwclient), {@code lbbroker}, {@code majordomo}
 * (mdbroker, mdwrkapi/mdcliapi, mdworker/mdclient), {@code lazypirate} (lpserver/lpclient), {@code clone}
 * (clonesrv3/clonecli3 with kvsimple) and {@code perf} (JeroMQ's local/remote throughput and latency programs).
 */
package io.zmtp.jeromq.guide;
