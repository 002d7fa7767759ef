// Keeps only the public API of a `swift-api-digester -dump-sdk` file: drops the nodes the
// digester marks `isInternal` (our `package` seam, which bench, the scenes and the tests use and
// may change freely) and the module's imports (they name the platform's C library). Keys are
// sorted and the output pretty-printed, so the committed baseline diffs line by line.
//
// Usage: swift .ci/Support/PublicAPIFilter.swift IN.json OUT.json   (run by .ci/check-api)
import Foundation

func keep(_ node: Any) -> Any? {
    guard var object = node as? [String: Any] else { return node }
    if object["isInternal"] as? Bool == true { return nil }
    if object["kind"] as? String == "Import" { return nil }
    for (key, value) in object {
        if key == "children", let children = value as? [Any] {
            object[key] = children.compactMap(keep)
        } else if value is [String: Any] {
            object[key] = keep(value)   // the root: {"ABIRoot": {…}}
        }
    }
    return object
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: PublicAPIFilter.swift IN.json OUT.json\n".utf8))
    exit(2)
}
do {
    let input = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
    let output = try JSONSerialization.data(withJSONObject: keep(input) ?? [:],
                                            options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    try (output + Data("\n".utf8)).write(to: URL(fileURLWithPath: arguments[2]))
} catch {
    FileHandle.standardError.write(Data("PublicAPIFilter: \(error)\n".utf8))
    exit(1)
}
