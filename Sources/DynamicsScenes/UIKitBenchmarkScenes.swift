/// The UIKit-level benchmark scenes (ui_rain, ui_fields, ui_chains), driven through the public API.
package enum UIKitBenchmarkScenes {
    package static var all: [BenchmarkScene] { [] }
}
