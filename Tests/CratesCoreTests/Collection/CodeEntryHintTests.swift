import CratesCore
import Testing

@Suite("CodeEntry: what a code that is not a barcode most likely was")
struct CodeEntryHintTests {
    @Test("a few bare digits (a release id as crates search prints it): the r form is offered")
    func releaseNumber() throws {
        #expect(throws: LabelCodeError.self) { try CodeEntry.parse("1401") }
        do {
            _ = try CodeEntry.parse("1401")
        } catch {
            #expect(error == .releaseNumber("1401", .wrongLength(digits: 4)))
            #expect(error.description.hasSuffix("; for the Discogs release 1401, type r1401"), "\(error)")
            #expect(error.gtinError == .wrongLength(digits: 4))
        }
        #expect(try CodeEntry.parse("r1401") == .release(1401))
    }

    @Test("a release page of the configured web address counts as discogs.com's; another address is said to be one")
    func webAddresses() throws {
        let base = "http://127.0.0.1:8931"
        #expect(try CodeEntry.parse("http://127.0.0.1:8931/release/1401-Some-Title", webBases: [base]) == .release(1401))
        #expect(try CodeEntry.parse("https://www.discogs.com/release/249504-X", webBases: [base]) == .release(249504))
        do {
            _ = try CodeEntry.parse("http://127.0.0.1:8931/release/1401-Some-Title")
            Issue.record("not a release page without its address configured")
        } catch {
            guard case .webAddress = error else { throw error }
            #expect(error.description.contains("is a web address but not a Discogs release page"), "\(error)")
            #expect(!error.description.contains("is not a digit"))
        }
    }
}
