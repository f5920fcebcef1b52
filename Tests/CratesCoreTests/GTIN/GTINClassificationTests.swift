import CratesCore
import Testing

@Suite("GTIN classification by GS1 prefix")
struct GTINClassificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let code: String
        let expected: GTINClass
        var testDescription: String { code }
    }

    static let cases: [Case] = [
        // Issuing GS1 organisations, from the prefix table.
        Case(code: "5099750442227", expected: .issuer("United Kingdom")),
        Case(code: "888462040747", expected: .issuer("United States and Canada")),
        Case(code: "0077774620024", expected: .issuer("United States and Canada")),
        Case(code: "04252614", expected: .issuer("United States and Canada")),
        Case(code: "4006381333931", expected: .issuer("Germany")),
        Case(code: "4901234567894", expected: .issuer("Japan")),
        Case(code: "1401234567892", expected: .unassigned(prefix: "140")),
        // Not records: books, scores, periodicals.
        Case(code: "9781617292156", expected: .isbn),
        Case(code: "9790260000438", expected: .ismn),
        Case(code: "9771234567003", expected: .issn),
        // Coupons, refunds, restricted circulation (GS1 rules).
        Case(code: "0512345678900", expected: .coupon),
        Case(code: "9811234567891", expected: .coupon),
        Case(code: "9912345678909", expected: .coupon),
        Case(code: "9801234567892", expected: .refundReceipt),
        Case(code: "2000000000008", expected: .restrictedCirculation),
        Case(code: "0212345678909", expected: .restrictedCirculation),
        Case(code: "0412345678903", expected: .restrictedCirculation),
        // GTIN-8: GS1-8 prefixes, not the GTIN-13 ones.
        Case(code: "96385074", expected: .issuer("Global office (GTIN-8s)")),
        Case(code: "50123452", expected: .issuer("United Kingdom")),
        Case(code: "21234569", expected: .restrictedCirculation),
        Case(code: "01234565", expected: .restrictedCirculation),
        Case(code: "97812340", expected: .unassigned(prefix: "978")),
        Case(code: "15012340", expected: .unassigned(prefix: "150")),
        // GTIN-14: the GS1 prefix follows the indicator digit.
        Case(code: "15012345678907", expected: .issuer("United Kingdom")),
        Case(code: "19781617292153", expected: .isbn),
    ]

    @Test("classes", arguments: cases)
    func classification(_ testCase: Case) throws {
        let gtin = try GTIN(parsing: testCase.code)
        #expect(gtin.classification == testCase.expected)
        #expect(gtin.isMusicReleaseCandidate == (gtin.notARecordReason == nil))
    }

    @Test("non-records say so plainly, records and unknowns stay candidates")
    func reasons() throws {
        #expect(try GTIN(parsing: "9781617292156").notARecordReason == "an ISBN: a book, not a record")
        #expect(try GTIN(parsing: "9790260000438").notARecordReason == "an ISMN: printed music (a score), not a record")
        #expect(try GTIN(parsing: "9771234567003").notARecordReason?.contains("periodical") == true)
        #expect(try GTIN(parsing: "9811234567891").notARecordReason == "a coupon, not a record")
        #expect(try GTIN(parsing: "9801234567892").notARecordReason == "a refund receipt, not a record")
        #expect(try GTIN(parsing: "2000000000008").notARecordReason?.contains("in-store") == true)
        #expect(try GTIN(parsing: "5099750442227").isMusicReleaseCandidate)
        #expect(try GTIN(parsing: "1401234567892").isMusicReleaseCandidate)
        #expect(GTINClass.isbn.description == "an ISBN: a book, not a record")
        #expect(GTINClass.issuer("Japan").description == "Japan")
    }

    @Test("every 3-digit prefix classifies without trapping, coherently with the table")
    func everyPrefix() throws {
        for prefix in 0...999 {
            let body = String(prefix + 1000).dropFirst() + "123456789"
            let code = withCheckDigit(String(body))
            guard !code.hasPrefix("00000") else { continue }  // a padded GTIN-8
            let gtin = try GTIN(parsing: code)
            if case .issuer(let name) = gtin.classification {
                #expect(GS1PrefixTable.entry(forPrefix: prefix)?.usedBy == name)
            }
            if case .unassigned = gtin.classification {
                #expect(GS1PrefixTable.entry(forPrefix: prefix) == nil)
            }
        }
    }
}
