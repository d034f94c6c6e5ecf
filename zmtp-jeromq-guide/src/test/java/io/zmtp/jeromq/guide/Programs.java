package io.zmtp.jeromq.guide;

/**
 * The programs' main classes, by name: the tests compile without them (the JeroMQ build has its own copies, and
 * this module's build of them needs zmtp-jeromq's classes), and each child JVM loads the one it runs.
 */
final class Programs {
    static final String HW_SERVER = "io.zmtp.jeromq.guide.hello.HwServer";
    static final String HW_CLIENT = "io.zmtp.jeromq.guide.hello.HwClient";
    static final String MT_RELAY = "io.zmtp.jeromq.guide.relay.MtRelay";
    static final String RT_DEALER = "io.zmtp.jeromq.guide.rtdealer.RtDealer";
    static final String SYNC_PUB = "io.zmtp.jeromq.guide.syncpub.SyncPub";
    static final String SYNC_SUB = "io.zmtp.jeromq.guide.syncpub.SyncSub";
    static final String LB_BROKER = "io.zmtp.jeromq.guide.lbbroker.LbBroker";
    static final String LB_BROKER3 = "io.zmtp.jeromq.guide.lbbroker.LbBroker3";
    static final String ASYNC_SRV = "io.zmtp.jeromq.guide.asyncsrv.AsyncSrv";
    static final String ESPRESSO = "io.zmtp.jeromq.guide.espresso.Espresso";
    static final String ESPRESSO_ZPROXY = "io.zmtp.jeromq.guide.espresso.EspressoZProxy";
    static final String MD_BROKER = "io.zmtp.jeromq.guide.majordomo.MdBroker";
    static final String MD_CLIENT = "io.zmtp.jeromq.guide.majordomo.MdClient";
    static final String MD_WORKER = "io.zmtp.jeromq.guide.majordomo.MdWorker";
    static final String LP_CLIENT = "io.zmtp.jeromq.guide.lazypirate.LpClient";
    static final String LP_SERVER = "io.zmtp.jeromq.guide.lazypirate.LpServer";
    static final String CLONE_CLI3 = "io.zmtp.jeromq.guide.clone.CloneCli3";
    static final String CLONE_SRV3 = "io.zmtp.jeromq.guide.clone.CloneSrv3";
    static final String LOCAL_THR = "io.zmtp.jeromq.guide.perf.LocalThr";
    static final String REMOTE_THR = "io.zmtp.jeromq.guide.perf.RemoteThr";
    static final String LOCAL_LAT = "io.zmtp.jeromq.guide.perf.LocalLat";
    static final String REMOTE_LAT = "io.zmtp.jeromq.guide.perf.RemoteLat";

    private Programs() {}
}
