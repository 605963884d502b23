package dev.bottleneckkit.sweep.internal.kinds;

import java.util.Arrays;
import java.util.List;

import dev.bottleneckkit.probe.ThreadDump.DumpedThread;
import dev.bottleneckkit.sweep.Resource;
import dev.bottleneckkit.sweep.internal.analysis.AtCap;
import dev.bottleneckkit.sweep.internal.analysis.DumpedServer;
import dev.bottleneckkit.sweep.internal.read.ThreadDumps;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resources the analysis knows are one list: each {@link Resource} has one kind in
 * it, and the stages read their rules, bounds and knobs from it in its order.
 */
class ResourceKindsTest {

	@Test
	void everyResourceHasOneKind() {
		List<Resource> kinds = ResourceKinds.ALL.stream().map(ResourceKind::resource).toList();

		assertThat(kinds).containsExactlyInAnyOrderElementsOf(Arrays.asList(Resource.values()));
	}

	@Test
	void theTeamsOwnResourceIsAskedFirstAndTheCpuLast() {
		assertThat(ResourceKinds.ALL.get(0).resource()).isEqualTo(Resource.OWN);
		assertThat(ResourceKinds.ALL.get(ResourceKinds.ALL.size() - 1).resource()).isEqualTo(Resource.CPU);
		// A cap upstream of a client comes before the connections it lets through.
		assertThat(indexOf(Resource.BULKHEAD)).isLessThan(indexOf(Resource.CONNECTION_POOL));
		assertThat(indexOf(Resource.RATE_LIMITER)).isLessThan(indexOf(Resource.CONNECTION_POOL));
		assertThat(indexOf(Resource.EXECUTOR)).isLessThan(indexOf(Resource.CONNECTION_POOL));
	}

	@Test
	void onlyDemandsAreReadAgainOnAConfirmationsStep() {
		assertThat(ResourceKinds.ALL.stream().filter(ResourceKind::demanded).map(ResourceKind::resource))
			.containsExactlyInAnyOrder(Resource.CARRIER_THREADS, Resource.CPU, Resource.DOWNSTREAM);
	}

	/**
	 * A request thread is one every server kind's frames tell, each server's own in its
	 * file: the servlet containers', Jetty's, Undertow's, Quarkus REST's and WebFlux's
	 * handlers serve a request; their pools' idle waits, and Netty's selectors, wait for
	 * one.
	 */
	@Test
	void aRequestThreadIsWhatTheServersFramesSayItIs() {
		assertThat(ResourceKinds.SERVING.requestFrames()).containsExactlyInAnyOrder(
				"org.apache.catalina.core.ApplicationFilterChain", "jakarta.servlet.http.HttpServlet.service",
				"javax.servlet.http.HttpServlet.service", "org.eclipse.jetty.server.Server.handle",
				"io.undertow.server.Connectors.executeRootHandler",
				"org.jboss.resteasy.reactive.server.handlers.InvocationHandler.handle",
				"org.springframework.web.reactive.result.method.InvocableHandlerMethod",
				"org.springframework.web.reactive.DispatcherHandler");
		assertThat(ResourceKinds.SERVING.idleFrames()).containsExactlyInAnyOrder(
				"java.util.concurrent.ThreadPoolExecutor.getTask", "org.apache.tomcat.util.threads.TaskQueue",
				"org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.idleJobPoll",
				"org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread.reservedWait",
				"org.jboss.threads.EnhancedQueueExecutor$PoolThreadNode.park",
				"org.jboss.threads.EnhancedQueueExecutor.park", "io.netty.channel.nio.NioEventLoop.select",
				"io.netty.channel.epoll.EpollEventLoop.epollWait", "io.netty.channel.nio.NioIoHandler.select",
				"io.netty.channel.epoll.EpollIoHandler.epollWait", "io.netty.channel.epoll.Native.epollWait",
				"io.netty.channel.epoll.Native.epollBusyWait");
	}

	/**
	 * A worker pool in a dump is the first server's that claims it, each claim naming
	 * only its own frames or threads: a new server is one kind in the list, and Tomcat's,
	 * which claims any pool, comes last.
	 */
	@Test
	void aWorkerPoolIsTheFirstServersThatClaimsIt() {
		List<DumpedServer> servers = ResourceKinds.servers();
		AtCap at = new AtCap(null, null, List.of(), 0, 1, null, List.of(), List.of(), servers);

		assertThat(servers).extracting(DumpedServer::resource)
			.containsExactly(Resource.EVENT_LOOPS, Resource.QUARKUS_WORKER_THREADS, Resource.JETTY_THREADS,
					Resource.UNDERTOW_THREADS, Resource.TOMCAT_THREADS);
		assertThat(at.serverOf(pool("qtp1234-", "org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.run")))
			.map(DumpedServer::resource)
			.hasValue(Resource.JETTY_THREADS);
		assertThat(at.serverOf(pool("vert.x-eventloop-thread-", "org.jboss.resteasy.reactive.server.Handler")))
			.map(DumpedServer::resource)
			.hasValue(Resource.EVENT_LOOPS);
		assertThat(at.serverOf(pool("http-nio-8080-exec-", "org.apache.tomcat.util.net.NioEndpoint$SocketProcessor")))
			.map(DumpedServer::resource)
			.hasValue(Resource.TOMCAT_THREADS);
	}

	private static ThreadDumps.WorkerPool pool(String name, String frame) {
		return new ThreadDumps.WorkerPool(name, List.of(new DumpedThread(name + "1", List.of(frame))), 0);
	}

	private static int indexOf(Resource resource) {
		return ResourceKinds.ALL.indexOf(ResourceKinds.of(resource));
	}

}
