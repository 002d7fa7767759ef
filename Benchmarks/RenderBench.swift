import Dynamics
import DynamicsScenes
import Foundation

// `bench --render`: what drawing and recording one frame costs, beside the step, for the
// UIKit benchmark scenes ui_rain (2 000 items, one inset boundary) and ui_chains (attachments):
// each scene is built, run 120 frames so items move and touch, then run 60 more frames with frame
// observers that draw the frame as ASCII (160 × 50) and SVG and record it as a trace in memory.
// Each observer is timed on its own (the recorder between two observers that read the clock).
// Not a pass/fail test: the numbers are reported by hand (see the commit that changes the path).

/// One way of handling a frame, timed per frame.
private struct RenderVariant {
    var label: String
    var times: [Double] = []
}

func runRenderBench(smoke: Bool, json: Bool) {
    let settle = smoke ? 2 : 120, frames = smoke ? 3 : 60
    let scenes = UIKitBenchmarkScenes.scenes.filter { $0.name == "ui_rain" || $0.name == "ui_chains" }
    if !json { print("scene        frame work                         min µs/frame   median µs/frame") }
    for scene in scenes {
        let instance = scene.make()
        let animator = instance.animator
        for frame in 0 ..< settle { instance.step(frame: frame) }
        let clock = ContinuousClock()
        var variants: [RenderVariant] = []
        func add(_ label: String, _ work: @escaping (FrameReport) -> Void) {
            let k = variants.count
            variants.append(RenderVariant(label: label))
            animator.addFrameObserver { report in
                let start = clock.now
                work(report)
                variants[k].times.append(milliseconds(clock.now - start) * 1000)
            }
        }
        let ascii = ASCIIRenderer(width: 160, height: 50)
        let svg = SVGRenderer()
        var sink = 0
        add("TraceScene(animator)") { _ in sink &+= TraceScene(animator).items.count }
        add("ASCII render(animator)") { _ in sink &+= ascii.render(animator).utf8.count }
        add("ASCII render(report, of:)") { report in sink &+= ascii.render(report, of: animator).utf8.count }
        add("SVG svg(animator)") { _ in sink &+= svg.svg(animator).utf8.count }
        add("SVG svg(report, of:)") { report in sink &+= svg.svg(report, of: animator).utf8.count }
        let rowsOnly = CSVFrameWriter()
        add("CSVFrameWriter.write (rows only)") { report in rowsOnly.write(report) }
        // The recorder is an observer of its own: timed between two observers that read the clock.
        let writer = CSVFrameWriter()
        var recordStart = clock.now
        let recordIndex = variants.count
        variants.append(RenderVariant(label: "CSVFrameWriter.record"))
        animator.addFrameObserver { _ in recordStart = clock.now }
        writer.record(animator)
        animator.addFrameObserver { _ in
            variants[recordIndex].times.append(milliseconds(clock.now - recordStart) * 1000)
        }
        for frame in settle ..< settle + frames { instance.step(frame: frame) }
        for v in variants {
            let sorted = v.times.sorted()
            let least = sorted.first ?? 0, median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            if json {
                let numbers = String(format: "\"min_us\":%.1f,\"median_us\":%.1f", least, median)
                print("{\"scene\":\"\(scene.name)\",\"work\":\"\(v.label)\",\(numbers)}")
            } else {
                let name = scene.name.padding(toLength: 13, withPad: " ", startingAt: 0)
                let label = v.label.padding(toLength: 33, withPad: " ", startingAt: 0)
                print(name + label + String(format: "%14.1f   %15.1f", least, median))
            }
        }
        if sink == 0 { print("(nothing drawn)") }
        sink &+= writer.text.utf8.count &+ rowsOnly.text.utf8.count
    }
}
