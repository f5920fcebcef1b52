import Foundation

/// The barcode a Discogs release carries, for records added by release id: the first of its
/// `identifiers` of type "Barcode" that reads as a valid GTIN. Others of that type are often
/// matrix text or rights-society codes, so each is parsed, never taken on trust. A release
/// completed from a search result (`hasFullDetails` false) has no identifiers: the result's
/// `barcode` list (every identifier's text) is read the same way. Nil when none reads.
public enum ReleaseBarcodes {
    public static func gtin(in release: Release) -> GTIN? {
        guard let data = release.rawJSON.data(using: .utf8) else { return nil }
        if !release.hasFullDetails, let result = try? JSONDecoder().decode(DiscogsSearchPage.Result.self, from: data) {
            for text in result.barcode {
                if let parsed = try? GTIN.parse(text), parsed.gtin.admission == .record { return parsed.gtin }
            }
            return nil
        }
        guard let decoded = try? JSONDecoder().decode(DiscogsRelease.self, from: data) else { return nil }
        for identifier in decoded.identifiers where identifier.type.lowercased() == "barcode" {
            if let parsed = try? GTIN.parse(identifier.value) { return parsed.gtin }
        }
        return nil
    }
}
