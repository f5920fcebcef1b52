import CratesApp
import CratesCore
@_spi(Benchmark) import CratesStore
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Small processes the store's tests run against one database file, several at once:
/// each does one thing the commands will do through the store's API, and says so on
/// standard output, one line per fact.
///
/// With `--wait 1` a driver opens the store (and reads its file), prints `ready`, and waits
/// for a line on standard input before it writes: the test starts them all, waits for every
/// `ready`, then lets them go together, so the writes really overlap.
enum Drivers {
    /// `import --db PATH --file FILE [--copies 1] [--wait 1] [--racy 1]`: reads FILE as
    /// `crates import` does and adds what the collection lacks; prints `added N present M`.
    /// `--racy 1` does it the way crates once did (count the copies, then add the
    /// new entries in separate transactions), to show the race the store's API closes.
    static func importFile(_ options: Options) async throws {
        let store = try CollectionStore(path: try options.required("--db"))
        let file: ImportFile
        switch try ImportInput.read(path: try options.required("--file")) {
        case .complete(let read): file = read
        case .stopped: throw UsageError("stopped")
        }
        let copies = options.flag("--copies")
        try waitIfAsked(options)
        if options.flag("--racy") {
            let present = try await store.copies(of: Set(file.entries.map(\.key)))
            let plan = ImportPlan(file: file, present: present, copies: copies)
            let ids = try await store.importEntries(plan.newEntries)
            say("added \(ids.count) present \(plan.presentCount)")
        } else {
            let outcome = try await store.importEntries(file.entries, copies: copies)
            say("added \(outcome.added) present \(outcome.present)")
        }
    }

    /// `add --db PATH --gtin DIGITS [--wait 1] [--racy 1]`: `crates add` of one barcode;
    /// prints `added ID` or `present N`.
    static func add(_ options: Options) async throws {
        let store = try CollectionStore(path: try options.required("--db"))
        guard let gtin = GTIN(canonical: try options.required("--gtin")) else { throw UsageError("--gtin needs a canonical GTIN") }
        try waitIfAsked(options)
        let new = NewRecord(gtin: gtin, addMethod: .typed)
        if options.flag("--racy") {
            let copies = try await store.copies(of: gtin)
            if copies > 0 { return say("present \(copies)") }
            say("added \(try await store.add(new).id)")
            return
        }
        switch try await store.addIfAbsent(new) {
        case .added(let record): say("added \(record.id)")
        case .present(let copies): say("present \(copies)")
        }
    }

    /// `claim --db PATH`: claims the next lookup as a worker does, prints `claimed ID` (or
    /// `nothing`), then holds the claim until standard input closes or the process is killed.
    static func claim(_ options: Options) async throws {
        let store = try CollectionStore(path: try options.required("--db"))
        guard let job = try await store.claimNext(now: Date(), lease: 900) else { return say("nothing") }
        say("claimed \(job.recordID)")
        while readLine() != nil {}
    }

    /// `read --db PATH`: opens the collection read-only, as `crates list` will, and prints
    /// `records N`.
    static func read(_ options: Options) async throws {
        let store = try CollectionStore(readingAt: try options.required("--db"))
        let count = Count()
        try await store.forEachPage(detail: .listing) { page in count.add(page.count) }
        say("records \(count.value)")
    }

    /// `import-memory --file FILE [--db PATH]`: what `crates import --no-lookup` will do with
    /// FILE through the library (stream it into the parser, then, with `--db`, add what the
    /// collection lacks, batch by batch), printing what it read and its peak memory; run under
    /// `/usr/bin/time -v` and `prlimit --as` by scripts/bench-reliability.sh.
    static func importMemory(_ options: Options) async throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let file: ImportFile
        switch try ImportInput.read(path: try options.required("--file")) {
        case .complete(let read): file = read
        case .stopped: throw UsageError("stopped")
        }
        var line = "lines \(file.lineCount) entries \(file.entries.count) refused \(file.refusalCount)"
        if let path = options.values["--db"] {
            let store = try CollectionStore(path: path)
            let outcome = try await store.importEntries(file.entries, copies: false)
            line += " added \(outcome.added) present \(outcome.present)"
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        say(line + String(format: " seconds %.2f cpu %.2f peak-rss-mb %.1f", seconds, cpuSeconds(RUSAGE_SELF), peakMemoryMB()))
    }

    /// `write-gtins --file FILE --count N`: N distinct valid barcodes, one per line (the
    /// benchmark's 1,000,000-line import file).
    static func writeGTINs(_ options: Options) async throws {
        let count = try options.int("--count", default: 1_000_000)
        let path = try options.required("--file")
        // Opened in place: FileManager.createFile renames a new file over the path (a device too).
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw UsageError("cannot write \(path)") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        defer { try? handle.close() }
        var generator = SyntheticCollection(seed: 5)
        var text = ""
        for index in 0..<count {
            text += generator.gtin().canonical + "\n"
            if index % 10_000 == 9_999 || index == count - 1 {
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
    }

    /// CPU time (user and system) of this process (`RUSAGE_SELF`, every thread) or of its
    /// waited-for children (`RUSAGE_CHILDREN`): on a machine shared with other work, the
    /// figure that does not depend on how many others run.
    static func cpuSeconds(_ who: __rusage_who) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(who.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The largest resident set this program has had, in MB: `VmHWM` of /proc/self/status,
    /// which starts afresh at exec. (getrusage's ru_maxrss does not: it keeps the peak of the
    /// process before exec, which for a child forked from a big test runner is the runner's.)
    static func peakMemoryMB() -> Double {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kilobytes = Double(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).dropLast(3)
               .trimmingCharacters(in: .whitespaces))
        {
            return kilobytes / 1024
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    private static func waitIfAsked(_ options: Options) throws {
        guard options.flag("--wait") else { return }
        say("ready")
        guard readLine() != nil else { throw UsageError("standard input closed before the go") }
    }

    /// One line on standard output, unbuffered, so the test sees it at once.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// Records counted on the store's reader thread.
final class Count: Sendable {
    private let total = Mutex(0)
    func add(_ n: Int) { total.withLock { $0 += n } }
    var value: Int { total.withLock { $0 } }
}

extension Options {
    func required(_ name: String) throws -> String {
        guard let value = values[name] else { throw UsageError("\(name) is needed") }
        return value
    }

    /// `--name 1` (or any value but 0).
    func flag(_ name: String) -> Bool {
        values[name].map { $0 != "0" } ?? false
    }
}
