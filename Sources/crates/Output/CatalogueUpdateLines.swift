import CratesApp

/// How `crates catalogue fetch` prints its update as it runs: the download's bar and the
/// build's on standard error, with the fetch's lines between; the verified dump on standard
/// output.
struct CatalogueUpdateLines: CatalogueUpdateReporter {
    let download: any DownloadReporting = DownloadProgress()
    private let build = CatalogueBuildProgress()

    func say(_ line: String) {
        download.note("crates catalogue fetch: \(line)")
    }

    func fetched(_ fetched: CatalogueFetch.Fetched) {
        try? StandardStreams.out("\(fetched.path): the releases dump of \(fetched.date), SHA-256 verified\n")
    }

    func building(_ progress: CatalogueBuild.Progress) {
        build.show(progress)
    }

    func buildEnded() {
        build.finish()
    }
}
