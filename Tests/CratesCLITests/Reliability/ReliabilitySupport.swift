import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the process tests of issue 12 share.
enum Reliability {
    /// Whether process `pid` has the file at `path` open (one of its descriptors leads to
    /// it): a `crates` that has opened the collection.
    static func hasOpen(_ pid: pid_t, _ path: String) -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
        return descriptors.contains { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == target
        }
    }

    /// What a person must never be shown instead of a reason (issue 12, item 9): Foundation's
    /// error text ("The operation could not be completed. (NSCocoaErrorDomain error 640.)"),
    /// an NSError's dump, SQLite's or Swift's internals.
    static let rawErrorTexts = [
        "NSCocoaErrorDomain", "Error Domain=", "NSPOSIXErrorDomain", "The operation could not be completed",
        "SQLite error", "SQLITE_", "Fatal error", "DatabaseError",
    ]

    /// Expects `result` to show none of `rawErrorTexts`, on either stream.
    static func expectPlainText(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in rawErrorTexts {
            #expect(!result.stdout.contains(text) && !result.stderr.contains(text), "\(text): \(result)", sourceLocation: sourceLocation)
        }
    }

    /// Writes `text` to `name` in the sandbox; its path.
    static func write(_ text: String, _ name: String, in sandbox: CommandSandbox) throws -> String {
        let path = sandbox.directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A list of `distinct` barcodes, some listed twice or three times, shuffled with `seed`:
    /// the text, and how many copies of each it wants.
    static func list(distinct: Int, seed: UInt64) -> (text: String, wanted: [GTIN: Int]) {
        var wanted: [GTIN: Int] = [:]
        var lines: [GTIN] = []
        for n in 0..<distinct {
            let gtin = Fixtures.gtin(9_000 + n)
            let copies = n % 15 == 0 ? 3 : n % 5 == 0 ? 2 : 1
            wanted[gtin] = copies
            lines += Array(repeating: gtin, count: copies)
        }
        var generator = SeededGenerator(seed: seed)
        lines.shuffle(using: &generator)
        return (lines.map(\.canonical).joined(separator: "\n") + "\n", wanted)
    }

    /// The `Discogs: N lookups: a matched, b ambiguous, c not found[, s skipped], d failed.`
    /// line of an import's output, checked to add up (issue 12: "18 lookups: 17 matched, 0,
    /// 0, 0" must never be printed); the counts by name.
    static func lookupCounts(_ stdout: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Int]? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("Discogs: ") && $0.contains(" lookup") })
        else { return nil }
        let afterPrefix = line.dropFirst("Discogs: ".count)
        let total = Int(afterPrefix.prefix { $0.isNumber }) ?? -1
        guard let colon = afterPrefix.range(of: ": ") else { return nil }
        var counts: [String: Int] = ["total": total]
        for part in afterPrefix[colon.upperBound...].prefix(while: { $0 != "." }).split(separator: ",") {
            let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            if words.count == 2, let n = Int(words[0]) { counts[String(words[1])] = n }
        }
        let sum = ["matched", "ambiguous", "not found", "skipped", "failed"].reduce(0) { $0 + (counts[$1] ?? 0) }
        #expect(sum == total, "the lookup summary does not add up: \(line)", sourceLocation: sourceLocation)
        return counts
    }

    /// How many records of the collection at `path` are in each lookup state.
    static func states(_ store: CollectionStore) async throws -> [LookupState: Int] {
        var states: [LookupState: Int] = [:]
        for section in try await store.sections() {
            for row in section.rows { states[row.lookupState, default: 0] += 1 }
        }
        return states
    }
}
