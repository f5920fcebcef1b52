/// What a record's lookup came to, in the words every reader sees (the list's row notes,
/// `crates add`'s detail column, an import's "needs a person" list). Each reader adds its own
/// "what to do next".
public enum RecordStatusText {
    /// Nil for a matched record (its title says it all).
    /// `hasBarcode` false: the record was searched by its own values (catalogue number,
    /// artist, title), not by a barcode. `notInCatalogue`: the local catalogue that does not
    /// know the record, which waits for Discogs.
    public static func of(
        _ state: LookupState, candidateCount: Int, lookupError: String? = nil, skipReason: String? = nil,
        hasBarcode: Bool = true, notInCatalogue: CatalogueEdition? = nil
    ) -> String? {
        switch state {
        case .matched: nil
        case .pending, .lookingUp: String?.some(notInCatalogue?.waitingForDiscogs ?? "looking up…")
        case .ambiguous: hasBarcode ? "\(candidateCount) pressings share this barcode" : "\(candidateCount) pressings fit"
        case .notFound: hasBarcode ? "Discogs knows no release with this barcode" : "Discogs has no release that fits"
        case .failed: lookupError ?? "the lookup failed"
        case .skipped: skipReason ?? "not looked up"
        case .handEntered: "entered by hand"
        }
    }
}

extension CollectionRecord {
    /// `RecordStatusText` for this record.
    public var statusText: String? {
        RecordStatusText.of(
            lookupState, candidateCount: candidates.count, lookupError: lookupError, skipReason: skipReason,
            hasBarcode: gtin != nil, notInCatalogue: lookupState == .matched ? nil : catalogueEdition)
    }
}
