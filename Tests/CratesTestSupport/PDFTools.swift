import Foundation

/// The poppler and zbar tools that tests read PDFs back with (pdfinfo, pdftoppm, pdftotext,
/// zbarimg), run as real processes through `ProcessRunner`, each with a deadline.
public enum PDFTools {
    /// Runs `tool` (found on PATH) and throws unless it exits with one of `statuses`.
    @discardableResult
    public static func check(
        _ tool: String, _ arguments: [String], statuses: Set<Int32> = [0], deadline: Duration = .seconds(120)
    ) async throws -> ProcessResult {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: [tool] + arguments, deadline: deadline)
        guard !result.timedOut, !result.signalled, statuses.contains(result.status) else {
            throw PDFToolError.failed(([tool] + arguments).joined(separator: " "), result)
        }
        return result
    }

    /// Each page's size in points, as pdfinfo reports it (rounded to 3 decimals by pdfinfo).
    public static func pageSizes(_ pdf: URL) async throws -> [(width: Double, height: Double)] {
        let result = try await check("pdfinfo", ["-f", "1", "-l", "100000", pdf.path])
        // "Page    1 size: 595.276 x 841.89 pts (A4)"
        return result.stdoutLines.compactMap { line -> (Double, Double)? in
            guard line.hasPrefix("Page"), let range = line.range(of: " size: ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ")
            guard words.count >= 3, words[1] == "x", let width = Double(words[0]), let height = Double(words[2])
            else { return nil }
            return (width, height)
        }
    }

    /// The page count pdfinfo reports.
    public static func pageCount(_ pdf: URL) async throws -> Int {
        let result = try await check("pdfinfo", [pdf.path])
        let line = result.stdoutLines.first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) ?? -1
    }

    /// The symbols zbarimg finds on page `page` (1-based) rendered at `dpi`, as
    /// "EAN-13:2900000000179" lines, sorted. `crop` (points) renders only that part.
    public static func decode(
        _ pdf: URL, page: Int, crop: (x: Double, y: Double, width: Double, height: Double)? = nil, dpi: Int = 300
    ) async throws -> [String] {
        let directory = try TemporaryDirectory(prefix: "crates-pdf")
        let image = directory.file("page")
        var arguments = ["-r", String(dpi), "-png", "-f", String(page), "-l", String(page), "-singlefile"]
        if let crop {
            // pdftoppm crops in pixels of the rendered page.
            let scale = Double(dpi) / 72
            arguments += ["-x", String(Int((crop.x * scale).rounded())), "-y", String(Int((crop.y * scale).rounded())),
                          "-W", String(Int((crop.width * scale).rounded())),
                          "-H", String(Int((crop.height * scale).rounded()))]
        }
        try await check("pdftoppm", arguments + [pdf.path, image])
        // zbarimg: 0 when it found symbols, 4 when it found none.
        let result = try await check("zbarimg", ["-q", image + ".png"], statuses: [0, 4])
        return result.stdoutLines.filter { $0.contains(":") }.sorted()
    }

    /// The PDF's text (pdftotext; `layout` keeps columns in place).
    /// `page`: that page only (from 1).
    public static func text(_ pdf: URL, page: Int? = nil, layout: Bool = false) async throws -> String {
        let pages = page.map { ["-f", String($0), "-l", String($0)] } ?? []
        return try await check("pdftotext", (layout ? ["-layout"] : []) + pages + [pdf.path, "-"]).stdout
    }
}

/// A tool that failed, with what it said.
public enum PDFToolError: Error, CustomStringConvertible {
    case failed(String, ProcessResult)

    public var description: String {
        switch self {
        case let .failed(command, result): "\(command): \(result)"
        }
    }
}
