package dev.bottleneckkit.load;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The requests of one load: checked once, named apart, weighed. */
final class Mix {

	private Mix() {
	}

	/** {@code mix} as a list: at least one request, each name once. */
	static List<Request> of(Request... mix) {
		if (mix == null || mix.length == 0) {
			throw new IllegalArgumentException("a load needs at least one request to send");
		}
		Set<String> names = new HashSet<>();
		for (Request request : mix) {
			if (!names.add(request.name())) {
				throw new IllegalArgumentException(
						"two requests of the mix are named '" + request.name() + "': name them apart with named(..)");
			}
		}
		return List.of(mix);
	}

	static List<String> names(List<Request> mix) {
		return mix.stream().map(Request::name).toList();
	}

	/** Each request's share of the draws: its weight over the total. */
	static List<Double> shares(List<Request> mix) {
		double total = mix.stream().mapToInt(Request::weight).sum();
		return mix.stream().map((request) -> request.weight() / total).toList();
	}

	/**
	 * "http://localhost:8080/orders/42" for one request; "GET /orders/42 ×8, POST /orders
	 * ×2 on localhost:8080".
	 */
	static String describe(List<Request> mix) {
		if (mix.size() == 1 && mix.get(0).method().equals("GET")) {
			return mix.get(0).uri().toString();
		}
		return mix.stream()
			.map((request) -> request.name() + ((mix.size() > 1) ? " ×" + request.weight() : ""))
			.collect(Collectors.joining(", ")) + " on " + mix.get(0).hostAndPort();
	}

}
