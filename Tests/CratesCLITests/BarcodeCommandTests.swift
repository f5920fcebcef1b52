import CratesTestSupport
import Foundation
import Testing

/// Runs the built `crates barcode` and checks what it prints and how it exits.
@Suite("crates barcode (process)", .processTimeLimit)
struct BarcodeCommandTests {
    @Test("valid codes: one tab-separated line each, in order, exit 0")
    func validCodes() async throws {
        let result = try await ProcessRunner.crates([
            "barcode", "5099750442227", "0-77774-62002-4", "04252614", "9781617292156", "96385074",
            "5 099750 442227 12345", "(01)05099750442227(17)250101", "٥٠٩٩٧٥٠٤٤٢٢٢٧",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(!result.timedOut)
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutLines == [
            "5099750442227\t5099750442227\tEAN-13\t-\tUnited Kingdom\t5099750442227; 5 099750 442227\t-",
            "0-77774-62002-4\t0077774620024\tUPC-A\t-\tUnited States and Canada\t"
                + "0077774620024; 077774620024; 0 77774 62002 4\t-",
            "04252614\t0042100005264\tUPC-E→UPC-A\t-\tUnited States and Canada\t"
                + "0042100005264; 042100005264; 04252614; 0 42100 00526 4; 0 425261 4\t-",
            "9781617292156\t9781617292156\tEAN-13\t-\tan ISBN: a book, not a record\t9781617292156; 9 781617 292156\t-",
            "96385074\t96385074\tEAN-8\t-\tGlobal office (GTIN-8s)\t96385074; 9638 5074\t-",
            "5 099750 442227 12345\t5099750442227\tEAN-13\t12345\tUnited Kingdom\t5099750442227; 5 099750 442227\t-",
            "(01)05099750442227(17)250101\t5099750442227\tEAN-13\t-\tUnited Kingdom\t5099750442227; 5 099750 442227\t"
                + "GTIN taken from the GS1 application identifier (01); ignored (17) after (01)",
            "٥٠٩٩٧٥٠٤٤٢٢٢٧\t5099750442227\tEAN-13\t-\tUnited Kingdom\t5099750442227; 5 099750 442227\t"
                + "non-ASCII digits read as 0-9",
        ])
    }

    @Test("an invalid code: its error on stderr, the valid ones still printed, exit 1")
    func invalidCode() async throws {
        let result = try await ProcessRunner.crates(["barcode", "5099750442227", "5099750442224", "888462040747"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines.map { $0.split(separator: "\t").prefix(2).joined(separator: " ") }
            == ["5099750442227 5099750442227", "888462040747 0888462040747"])
        #expect(result.stderrLines == [
            "5099750442224\terror\tcheck digit should be 7, got 4: a misread or a typo (read as EAN-13)",
        ])
    }

    @Test("bad inputs each get a message, never a crash", arguments: [
        ("", "empty"),
        ("12345678901234", "check digit should be 1, got 4"),
        ("96385075", "tried as EAN-8"),
        ("5099750A442227", "\"A\" at position 8"),
        (String(repeating: "7", count: 200), "200 digits is too long"),
    ])
    func badInput(input: String, message: String) async throws {
        let result = try await ProcessRunner.crates(["barcode", input])
        #expect(result.status == 1, "\(result)")
        #expect(!result.signalled)
        #expect(result.stdout.isEmpty)
        let fields = try #require(result.stderrLines.first).split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.count == 3)
        #expect(fields.dropFirst().first == "error")
        #expect(fields.last?.contains(message) == true, "\(result)")
        // A long input is shortened when echoed.
        #expect((fields.first?.count ?? 0) <= 65)
    }

    @Test("control characters are shown as escapes, never raw")
    func controlCharacters() async throws {
        let result = try await ProcessRunner.crates(["barcode", "50997\u{1B}[2J50442227", "5099\t750442227"])
        #expect(result.status == 1)
        #expect(result.stderrLines == [
            "50997\\u{1B}[2J50442227\terror\tcontrol character \\u{1B} (ESC) at position 6: "
                + "a barcode holds only digits (is a scanner or file sending binary data?)",
            "5099\\t750442227\terror\tcontrol character \\t (tab) at position 5: "
                + "a barcode holds only digits (is a scanner or file sending binary data?)",
        ])
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test("--json: one object per code and line, errors included")
    func json() async throws {
        let result = try await ProcessRunner.crates(["barcode", "--json", "04252614", "9781617292156", "oops"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty)
        let objects = try result.stdoutLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        try #require(objects.count == 3)
        #expect(objects[0]["canonical"] as? String == "0042100005264")
        #expect(objects[0]["kind"] as? String == "UPC-E→UPC-A")
        #expect(objects[0]["lookupForms"] as? [String]
            == ["0042100005264", "042100005264", "04252614", "0 42100 00526 4", "0 425261 4"])
        #expect(objects[0]["isMusicReleaseCandidate"] as? Bool == true)
        #expect(objects[1]["notARecordReason"] as? String == "an ISBN: a book, not a record")
        #expect(objects[1]["isMusicReleaseCandidate"] as? Bool == false)
        #expect(objects[2]["input"] as? String == "oops")
        #expect((objects[2]["error"] as? String)?.contains("\"o\" at position 1") == true)
        #expect(objects[2]["canonical"] == nil)
    }

    @Test("--help explains the columns and gives an example")
    func help() async throws {
        let result = try await ProcessRunner.crates(["barcode", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("input  canonical  kind  add-on  country-or-class  lookup-forms  notes"))
        #expect(result.stdout.contains("crates barcode 5099750442227"))
        #expect(result.stdout.contains("standard error"))
    }

    @Test("no code at all is a usage error")
    func noCode() async throws {
        let result = try await ProcessRunner.crates(["barcode"])
        #expect(result.status == 64, "\(result)")  // EX_USAGE, from ArgumentParser
        #expect(result.stderr.contains("Missing expected argument"))
    }
}
