import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a finished tool left behind.
struct ToolResult: Sendable, CustomStringConvertible {
    let status: Int32
    let timedOut: Bool
    let stdout: String
    let stderr: String

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    var description: String {
        "status \(status)\(timedOut ? " TIMED OUT" : "")\nstdout:\n\(stdout)stderr:\n\(stderr)"
    }
}

enum LabelToolError: Error, CustomStringConvertible {
    case failed(String, ToolResult)

    var description: String {
        switch self {
        case let .failed(command, result): "\(command): \(result)"
        }
    }
}

/// The poppler and zbar tools the label tests read PDFs back with, run as real processes
/// with a deadline. Their output goes to files rather than pipes, so that nothing has to be
/// drained while waiting, and a tool that hangs is stopped at the deadline.
///
/// (The CLI tests' `ProcessRunner` is in another test target and cannot be shared; this is
/// the small part of it these tests need.)
enum LabelTools {
    /// Runs `tool` (found on PATH) with `arguments`; never waits past `deadline`.
    static func run(_ tool: String, _ arguments: [String], deadline: Duration = .seconds(120)) async throws -> ToolResult {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()

        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var timedOut = false
        while process.isRunning {
            if clock.now >= end {
                timedOut = true
                process.terminate()
                // SIGTERM may be blocked in a child of the test runner: SIGKILL after a second.
                let killAt = clock.now.advanced(by: .seconds(1))
                while process.isRunning, clock.now < killAt { try? await Task.sleep(for: .milliseconds(10)) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
                break
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return ToolResult(
            status: process.terminationStatus, timedOut: timedOut,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Runs `tool` and throws unless it exits with one of `statuses`.
    static func check(_ tool: String, _ arguments: [String], statuses: Set<Int32> = [0]) async throws -> ToolResult {
        let result = try await run(tool, arguments)
        guard !result.timedOut, statuses.contains(result.status) else {
            throw LabelToolError.failed(([tool] + arguments).joined(separator: " "), result)
        }
        return result
    }

    /// A new empty directory under the system's temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("crates-labels-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: - pdfinfo

    /// Each page's size in points, as pdfinfo reports it (rounded to 3 decimals by pdfinfo).
    static func pageSizes(_ pdf: URL) async throws -> [(width: Double, height: Double)] {
        let result = try await check("pdfinfo", ["-f", "1", "-l", "100000", pdf.path])
        // "Page    1 size: 595.276 x 841.89 pts (A4)"
        return result.lines.compactMap { line -> (Double, Double)? in
            guard line.hasPrefix("Page"), let range = line.range(of: " size: ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ")
            guard words.count >= 3, words[1] == "x", let width = Double(words[0]), let height = Double(words[2])
            else { return nil }
            return (width, height)
        }
    }

    /// The page count pdfinfo reports.
    static func pageCount(_ pdf: URL) async throws -> Int {
        let result = try await check("pdfinfo", [pdf.path])
        let line = result.lines.first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) ?? -1
    }

    // MARK: - pdftoppm and zbarimg

    /// The symbols zbarimg finds on page `page` (1-based) rendered at 300 dpi, as
    /// "EAN-13:2900000000179" lines, sorted. `crop` (points) renders only that part.
    static func decode(_ pdf: URL, page: Int, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
                       dpi: Int = 300) async throws -> [String] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appendingPathComponent("page")
        var arguments = ["-r", String(dpi), "-png", "-f", String(page), "-l", String(page), "-singlefile"]
        if let crop {
            // pdftoppm crops in pixels of the rendered page.
            let scale = Double(dpi) / 72
            arguments += ["-x", String(Int((crop.x * scale).rounded())), "-y", String(Int((crop.y * scale).rounded())),
                          "-W", String(Int((crop.width * scale).rounded())),
                          "-H", String(Int((crop.height * scale).rounded()))]
        }
        _ = try await check("pdftoppm", arguments + [pdf.path, image.path])
        // zbarimg: 0 when it found symbols, 4 when it found none.
        let result = try await check("zbarimg", ["-q", image.path + ".png"], statuses: [0, 4])
        return result.lines.filter { $0.contains(":") }.sorted()
    }
}
