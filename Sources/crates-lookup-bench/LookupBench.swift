import CratesCore
import CratesNet
import CratesStore
import Foundation

/// The lookup benchmark: 200 GTINs (EAN and UPC found, found only by a spaced form,
/// ambiguous, not found, not records) looked up through the real store, worker, rate limiter
/// and libcurl transport, against the loopback Discogs server with a scaled-down window.
///
/// Prints the achieved request rate as a fraction of the allowed rate (target ≥ 0.95), the
/// 429s (target 0), requests per GTIN, and lookups lost (must be 0). With `--runs N`, the
/// median of each figure over N runs.
///
///     crates-lookup-bench [--limit 20] [--window 5] [--runs 1] [--server Tests/DiscogsServer/server.py]
@main
struct LookupBench {
    struct Options {
        var limit = 20
        var window = 5.0
        var runs = 1
        var server = "Tests/DiscogsServer/server.py"
        var fixtures = "Fixtures/discogs"
    }

    struct Figures {
        var requests = 0
        var throttled = 0
        var span = 0.0
        var lost = 0
        var wrong = 0
        var maxInWindow = 0
        var lookupSeconds: [Double] = []
    }

    static func main() async {
        var options = Options()
        var args = CommandLine.arguments.dropFirst()
        while let flag = args.popFirst() {
            let value = args.popFirst() ?? ""
            switch flag {
            case "--limit": options.limit = Int(value) ?? options.limit
            case "--window": options.window = Double(value) ?? options.window
            case "--runs": options.runs = max(1, Int(value) ?? 1)
            case "--server": options.server = value
            case "--fixtures": options.fixtures = value
            default:
                FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
                exit(2)
            }
        }
        let set = GTINSet.make()
        print("crates lookup benchmark: \(set.gtins.count) GTINs (\(set.summary)), window \(options.limit) requests / \(options.window) s")
        var all: [Figures] = []
        for run in 1...options.runs {
            do {
                let f = try await runOnce(options, set: set)
                all.append(f)
                report("run \(run)", f, options, set: set)
            } catch {
                print("run \(run) failed: \(error)")
                exit(1)
            }
        }
        if options.runs > 1 {
            var median = Figures()
            median.requests = Self.median(all.map { Double($0.requests) }).rounded().int
            median.throttled = Self.median(all.map { Double($0.throttled) }).rounded().int
            median.span = Self.median(all.map(\.span))
            median.lost = all.map(\.lost).max() ?? 0
            median.wrong = all.map(\.wrong).max() ?? 0
            median.maxInWindow = all.map(\.maxInWindow).max() ?? 0
            median.lookupSeconds = all.flatMap(\.lookupSeconds)
            report("median of \(options.runs)", median, options, set: set)
        }
        let worst = all.map { ratio($0, options) }.min() ?? 0
        let ok = worst >= 0.95 && all.allSatisfy { $0.throttled == 0 && $0.lost == 0 && $0.wrong == 0 }
        print(ok ? "targets met" : "TARGETS MISSED")
        exit(ok ? 0 : 1)
    }

    /// Steady-state rate as a fraction of the allowed one: the first window's allowance goes
    /// at once (a burst Discogs allows), so it is left out of the rate.
    static func ratio(_ f: Figures, _ o: Options) -> Double {
        guard f.span > 0 else { return 0 }
        return (Double(f.requests - o.limit) / f.span) / (Double(o.limit) / o.window)
    }

    /// The earliest the last of N requests can go under the window: the first `limit` go at
    /// once, then `limit` more each window.
    static func fastestSpan(_ f: Figures, _ o: Options) -> Double {
        o.window * Double((max(f.requests, 1) - 1) / o.limit)
    }

    static func report(_ label: String, _ f: Figures, _ o: Options, set: GTINSet) {
        let allowed = Double(o.limit) / o.window
        print(String(format: "%@: %d requests in %.1f s; allowed %.3f req/s; after the first window's burst %.3f req/s = %.3f of the allowed rate",
            label, f.requests, f.span, allowed, Double(f.requests - o.limit) / max(f.span, 0.001), ratio(f, o)))
        print(String(format: "  over the whole run %.3f req/s (%.3f of allowed, burst included); fastest schedule the window permits: %.1f s, achieved %.3f of it",
            Double(f.requests) / max(f.span, 0.001), Double(f.requests) / max(f.span, 0.001) / allowed, fastestSpan(f, o),
            fastestSpan(f, o) / max(f.span, 0.001)))
        print(String(format: "  429s: %d   max requests in one window: %d/%d   requests per GTIN: %.2f   lookups lost: %d   wrong outcomes: %d   median lookup: %.2f s",
            f.throttled, f.maxInWindow, o.limit, Double(f.requests) / Double(set.gtins.count), f.lost, f.wrong, median(f.lookupSeconds)))
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func runOnce(_ options: Options, set: GTINSet) async throws -> Figures {
        let dir = NSTemporaryDirectory() + "crates-lookup-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let index = dir + "/index.json"
        try JSONSerialization.data(withJSONObject: set.index, options: [.sortedKeys]).write(to: URL(fileURLWithPath: index))
        let token = "bench-token"
        let server = try BenchServer(
            script: options.server,
            arguments: ["--fixtures", options.fixtures, "--index", index, "--limit", String(options.limit), "--window", String(options.window), "--token", token])
        defer { server.stop() }

        let store = try CatalogueStore(path: dir + "/crates.sqlite")
        var ids: [Int64: GTINSet.Kind] = [:]
        for (gtin, kind) in set.gtins {
            let record = try await store.add(NewRecord(gtin: gtin, addMethod: .import))
            ids[record.id] = kind
        }
        let transport = try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: "bench")))
        let limiter = RateLimiter(configuration: .init(limit: options.limit, window: options.window))
        let client = DiscogsClient(
            transport: transport, endpoints: DiscogsEndpoints(api: server.base, web: server.base), credentials: .personalToken(token), rateLimiter: limiter)
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: client))
        let started = Date()
        let running = Task { await worker.run() }
        // The expected time is about requests / rate; allow five times that.
        let deadline = Date().addingTimeInterval(Double(set.gtins.count) * 3 / (Double(options.limit) / options.window) * 5 + 60)
        while (try? await store.waitingCount()) ?? 1 > 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let elapsed = Date().timeIntervalSince(started)
        await worker.stop()
        _ = await running.value

        var f = Figures()
        let stats = try await server.stats(transport)
        f.requests = stats.requests
        f.throttled = stats.throttled
        f.span = stats.span ?? 0
        f.maxInWindow = stats.max_in_window
        f.lookupSeconds = [elapsed / Double(set.gtins.count)]
        for (id, kind) in ids {
            guard let record = try await store.record(id) else {
                f.lost += 1
                continue
            }
            switch (record.lookupState, kind) {
            case (.matched, .eanFound), (.matched, .upcFound), (.matched, .spacedFound), (.ambiguous, .ambiguous),
                (.notFound, .notFound), (.skipped, .notARecord):
                break
            case (.pending, _), (.lookingUp, _), (.failed, _):
                f.lost += 1
            default:
                f.wrong += 1
            }
        }
        return f
    }
}

/// The 200 GTINs and the server's barcode index for them.
struct GTINSet {
    enum Kind: String, CaseIterable {
        case eanFound = "EAN found", upcFound = "UPC found by its 12 digits", spacedFound = "found by a spaced form"
        case ambiguous, notFound = "not found", notARecord = "ISBN (skipped)"
    }

    var gtins: [(GTIN, Kind)] = []
    var index: [String: [String: String]] = [:]

    var summary: String {
        Kind.allCases.map { k in "\(gtins.filter { $0.1 == k }.count) \(k.rawValue)" }.joined(separator: ", ")
    }

    static func make() -> GTINSet {
        var set = GTINSet()
        var serial = 0
        func next(_ prefix: String, length: Int) -> GTIN? {
            while true {
                serial += 1
                let body = prefix + String(serial).leftPadded(to: length - 1 - prefix.count)
                if let g = GTIN(canonical: body + checkDigit(body)), g.notARecordReason == nil { return g }
                if serial > 1_000_000 { return nil }
            }
        }
        let plan: [(Kind, Int)] = [(.eanFound, 60), (.upcFound, 30), (.spacedFound, 30), (.ambiguous, 30), (.notFound, 40), (.notARecord, 10)]
        for (kind, count) in plan {
            for i in 0..<count {
                let g: GTIN?
                switch kind {
                case .upcFound: g = next("07", length: 13)  // a UPC-A (number system 7) with its leading 0
                case .notARecord:
                    let body = "978" + String(100_000 + i * 7).leftPadded(to: 9)
                    g = GTIN(canonical: body + checkDigit(body))
                default: g = next("50", length: 13)
                }
                guard let g else { continue }
                let forms = DiscogsBarcodeQuery(gtin: g).forms
                switch kind {
                case .eanFound: set.index[g.canonical] = ["fixture": "one-hammerfall.json"]
                case .upcFound: if forms.count > 1 { set.index[forms[1]] = ["fixture": "one-persuader-2014.json"] }
                case .spacedFound: if let spaced = forms.last(where: { $0.contains(" ") }) { set.index[spaced] = ["fixture": "same-release-twice-holovr.json"] }
                case .ambiguous: set.index[g.canonical] = ["fixture": "several-dj-healer.json"]
                case .notFound, .notARecord: break
                }
                set.gtins.append((g, kind))
            }
        }
        return set
    }

    /// GS1 mod-10 check digit of the digits before it.
    static func checkDigit(_ body: String) -> String {
        var sum = 0
        for (i, c) in body.reversed().enumerated() { sum += (c.wholeNumberValue ?? 0) * (i % 2 == 0 ? 3 : 1) }
        return String((10 - sum % 10) % 10)
    }
}

/// The loopback server as a child process; it exits when its stdin closes.
final class BenchServer: Sendable {
    struct Stats: Decodable {
        var requests: Int
        var throttled: Int
        var max_in_window: Int
        var span: Double?
    }

    let base: String
    private let process: Process
    private let input: Pipe

    init(script: String, arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script] + arguments
        let input = Pipe()
        let output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        process = p
        self.input = input
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            p.terminate()
            throw BenchError.serverDidNotStart
        }
        base = "http://127.0.0.1:\(port)"
    }

    func stats(_ transport: CurlTransport) async throws -> Stats {
        let r = try await transport.send(HTTPRequest(url: base + "/_control/stats"))
        return try JSONDecoder().decode(Stats.self, from: r.body)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

enum BenchError: Error, CustomStringConvertible {
    case serverDidNotStart
    var description: String { "the loopback Discogs server did not start (is python3 installed? run from the repository root)" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Double {
    fileprivate var int: Int { Int(self) }
}
