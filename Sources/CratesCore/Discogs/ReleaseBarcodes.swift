import Foundation

/// The barcode a Discogs release carries, for records added by release id: the first of its
/// `identifiers` of type "Barcode" that reads as a valid GTIN. Others of that type are often
/// matrix text or rights-society codes, so each is parsed, never taken on trust.
public enum ReleaseBarcodes {
    public static func gtin(in release: Release) -> GTIN? {
        guard let data = release.rawJSON.data(using: .utf8),
              let decoded = try? JSONDecoder().decode(DiscogsRelease.self, from: data) else { return nil }
        for identifier in decoded.identifiers where identifier.type.lowercased() == "barcode" {
            if let parsed = try? GTIN.parse(identifier.value) { return parsed.gtin }
        }
        return nil
    }
}
