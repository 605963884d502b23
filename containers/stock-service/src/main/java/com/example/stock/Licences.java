package com.example.stock;

/**
 * Licences of a partner's API, handed out by hand as teams wrote pools before java.util.concurrent: a request takes
 * one for as long as it calls the partner and waits, on the pool's monitor, while none is free.
 */
final class Licences {

	private int free;

	Licences(int licences) {
		this.free = licences;
	}

	synchronized void take() throws InterruptedException {
		while (this.free == 0) {
			wait();
		}
		this.free--;
	}

	synchronized void giveBack() {
		this.free++;
		notifyAll();
	}

}
