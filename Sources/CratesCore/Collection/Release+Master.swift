import Foundation

extension Release {
    /// The master release Discogs groups this pressing under (`master_id` in its JSON: a
    /// full release, a search result and the catalogue's JSON all carry it); nil when it
    /// has none or the JSON does not say.
    public var masterID: Int? {
        guard rawJSON.utf8.count > 2, rawJSON.contains("master_id"),
              let object = try? JSONSerialization.jsonObject(with: Data(rawJSON.utf8)) as? [String: Any],
              let value = object["master_id"] as? NSNumber
        else { return nil }
        let id = value.intValue
        return id > 0 ? id : nil
    }
}
