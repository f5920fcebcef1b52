/// "1 record", "12 records": the one way counts are worded in messages.
public func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
}
