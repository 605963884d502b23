package com.example.stock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * An asynchronous client to the partner, written by hand as OkHttp's dispatcher works: calls run on a cached thread
 * pool, at most {@code maxPerHost} at once; the others wait in a plain deque until a running call finishes and
 * promotes the next. The caller gets a future. The connection pool under it allows 32 to the partner, more than the
 * dispatcher ever runs.
 */
final class Dispatcher {

	private final ExecutorService threads = Executors
		.newCachedThreadPool(Thread.ofPlatform().name("dispatcher-", 1).daemon().factory());

	private final CloseableHttpClient http = HttpClients.custom()
		.setConnectionManager(
				PoolingHttpClientConnectionManagerBuilder.create().setMaxConnPerRoute(32).setMaxConnTotal(32).build())
		.build();

	private final int maxPerHost;

	private final Deque<Call> ready = new ArrayDeque<>();

	private int running;

	Dispatcher(int maxPerHost) {
		this.maxPerHost = maxPerHost;
	}

	/** The body of a GET of {@code uri}, once the dispatcher has run it. */
	CompletableFuture<String> enqueue(URI uri) {
		Call call = new Call(uri);
		synchronized (this) {
			this.ready.add(call);
		}
		promote();
		return call.answer;
	}

	/** Starts the calls that wait while fewer than {@code maxPerHost} run. */
	private void promote() {
		while (true) {
			Call next;
			synchronized (this) {
				if (this.running >= this.maxPerHost || this.ready.isEmpty()) {
					return;
				}
				next = this.ready.poll();
				this.running++;
			}
			this.threads.execute(next);
		}
	}

	private synchronized void finished() {
		this.running--;
	}

	/** One call: run on a dispatcher thread, then the next promoted. */
	private final class Call implements Runnable {

		private final URI uri;

		private final CompletableFuture<String> answer = new CompletableFuture<>();

		Call(URI uri) {
			this.uri = uri;
		}

		@Override
		public void run() {
			try {
				this.answer.complete(Dispatcher.this.http.execute(new HttpGet(this.uri),
						(response) -> EntityUtils.toString(response.getEntity())));
			}
			catch (IOException ex) {
				this.answer.completeExceptionally(new UncheckedIOException(ex));
			}
			catch (RuntimeException ex) {
				this.answer.completeExceptionally(ex);
			}
			finally {
				finished();
				promote();
			}
		}

	}

}
