import CratesCore
import CratesStore
import Foundation
import Testing

/// An import's memory stays bounded (issue 12, items 6 and 7): a driver process reads the
/// file as `crates import` does (`crates-bench import-memory`) under an address-space limit
/// of 1 GiB (`prlimit --as`), and reports its peak resident memory, which must stay under
/// 100 MB. (Before, a 50 MB line took 1.4–2.8 GB and 1,000,000 lines 490 MB; the release
/// figures for those sizes are scripts/bench-reliability.sh's.)
@Suite(.serialized) struct ImportMemoryTests {
    private func run(_ arguments: [String]) async throws -> (line: String, peak: Double) {
        let driver = try DriverProcess(arguments, prefix: ["/usr/bin/prlimit", "--as=\(1 << 30)"])
        let status = await driver.exitStatus(within: 300)
        #expect(status == 0, "\(driver.lines.all)")
        let line = driver.lines.all.last ?? ""
        let peak = line.components(separatedBy: "peak-rss-mb ").last.flatMap { Double($0) } ?? .infinity
        return (line, peak)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func aLongLineAndManyLinesInBoundedMemory() async throws {
        let directory = try TemporaryDirectory()
        // One 20 MB line (no line break): refused as too long, never held.
        let long = directory.file("long.txt")
        #expect(FileManager.default.createFile(atPath: long, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: long))
        let chunk = Data(repeating: UInt8(ascii: "5"), count: 1 << 20)
        for _ in 0..<20 { try handle.write(contentsOf: chunk) }
        try handle.close()
        let (longLine, longPeak) = try await run(["import-memory", "--file", long])
        #expect(longLine.hasPrefix("lines 1 entries 0 refused 1"), "\(longLine)")
        #expect(longPeak < 100, "\(longLine)")

        // 50,000 barcodes, parsed and added to a collection (a debug build: the million is the
        // benchmark's).
        let many = directory.file("many.txt")
        let writer = try DriverProcess(["write-gtins", "--file", many, "--count", "50000"])
        #expect(await writer.exitStatus(within: 120) == 0)
        let (manyLine, manyPeak) = try await run(["import-memory", "--file", many, "--db", directory.file("c.sqlite")])
        #expect(manyLine.hasPrefix("lines 50000 entries 50000 refused 0 added 50000 present 0"), "\(manyLine)")
        #expect(manyPeak < 100, "\(manyLine)")
    }
}
