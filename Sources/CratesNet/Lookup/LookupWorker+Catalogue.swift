import CratesCore

/// The catalogue pass: before any record goes to Discogs, every record due that the local
/// catalogue has not been asked about is answered from it, a large batch per transaction
/// (`Policy.catalogueBatch`), with no claim, no rate limit, no in-flight cap and no request:
/// a shelf of thousands of barcodes the catalogue knows is final within seconds, Discogs
/// reachable or not. What it does not know is marked so (`CollectionRecord.catalogueEdition`)
/// and waits for Discogs, which is asked only about such records (`claimNext(…notIn:)`).
extension LookupWorker {
    /// The catalogue asked in this run, and its queue; nil without one, or once it failed.
    var catalogueAsked: (edition: CatalogueEdition, queue: any CatalogueLookupQueue)? {
        guard let catalogue, catalogueFailure == nil else { return nil }
        return (catalogue.catalogue.edition, catalogue.queue)
    }

    /// Answers every record due that the catalogue was not asked about, batch after batch,
    /// reporting each settled record as a lookup that cost no request.
    func answerFromCatalogue() async {
        guard let catalogue else { return }
        let source = catalogue.catalogue
        while !stopping, refused == nil, !Task.isCancelled {
            // Between two batches, a newer catalogue built in its place is taken (the
            // collection UI runs for hours; a scan answered from the replaced dump would cost
            // a request or wait for one). Its edition is another, so the records the older one
            // did not know are asked of it too; one that failed is tried again.
            if source.takeReplacement() { catalogueFailure = nil }
            guard catalogueFailure == nil else { return }
            let edition = source.edition
            let batch: CatalogueAnswers
            do {
                batch = try await catalogue.queue.answerFromCatalogue(edition, now: timeline.date, limit: policy.catalogueBatch) { job in
                    do throws(ReleaseCatalogueError) {
                        return try source.blockingAnswer(job).map(CatalogueVerdict.answered) ?? .absent
                    } catch {
                        return .unavailable(error)
                    }
                }
            } catch {
                return  // the store would not take it now: the next look asks again
            }
            for (recordID, outcome) in batch.settled {
                statistics.count(outcome, requests: 0)
                statistics.fromCatalogue += 1
                // Its full details come from Discogs later, as a search result's do.
                if outcome == .matched { background?.mayBeWaiting = true }
                eventSink.yield(.settled(recordID: recordID, outcome: outcome, requests: 0))
            }
            if let failure = batch.failure {
                // Discogs is asked about everything from now on, as without a catalogue.
                catalogueFailure = failure
                return
            }
            if batch.taken == 0 { return }
        }
    }
}
