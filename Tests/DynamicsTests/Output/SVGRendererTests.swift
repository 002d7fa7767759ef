import DynamicsScenes
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import Dynamics

/// The pictures `--svg` writes: well-formed SVG, one shape per item part, animations whose
/// values and key times agree, nothing animated that does not move, no scripts.
@Suite("SVGRenderer")
struct SVGRendererTests {
    /// The elements of an XML document, with their attributes, or nil when it is not well formed.
    final class Elements: NSObject, XMLParserDelegate {
        var list: [(name: String, attributes: [String: String])] = []
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            list.append((elementName, attributeDict))
        }

        static func parse(_ text: String) -> [(name: String, attributes: [String: String])]? {
            let parser = XMLParser(data: Data(text.utf8))
            let elements = Elements()
            parser.delegate = elements
            return parser.parse() ? elements.list : nil
        }
    }

    /// A recorded trace of `scene`, `frames` frames long.
    static func trace(_ scene: String, frames: Int) -> TraceReader {
        let instance = UIKitScenes.named(scene)!.make()
        let writer = CSVFrameWriter()
        writer.record(instance.animator)
        for k in 0 ..< frames { instance.step(frame: k) }
        return TraceReader(text: writer.text, sceneText: writer.sceneText)
    }

    static let shapeClasses: Set<String> = ["r", "ra", "e", "ea", "p", "pa"]

    @Test func aStillFrameDrawsEveryItemOnce() throws {
        let reader = Self.trace("pyramid", frames: 3)
        let frame = try #require(reader.frame(at: 1))
        let svg = SVGRenderer().svg(frame.report, scene: frame.scene)
        let elements = try #require(Elements.parse(svg), "not well-formed:\n\(svg)")
        #expect(elements.first?.name == "svg")
        let shapes = elements.filter { Self.shapeClasses.contains($0.attributes["class"] ?? "") }
        let parts = frame.scene.items.reduce(0) { $0 + $1.parts.count }
        #expect(frame.report.items.count == 37 && shapes.count == parts && parts == 37)
        #expect(!svg.contains("<script"))
    }

    @Test(arguments: ["pendulum", "rain", "chain", "snap"])
    func anAnimatedTraceIsWellFormed(scene: String) throws {
        let reader = Self.trace(scene, frames: 150)
        var renderer = SVGRenderer()
        renderer.keyframesPerSecond = 10
        let keyframes = renderer.keyframePositions(reader)
        let svg = renderer.animatedSVG(reader)
        let elements = try #require(Elements.parse(svg), "not well-formed")
        #expect(!svg.contains("<script"))
        #expect(keyframes.first == 0 && keyframes.last == reader.frameCount.map { $0 - 1 })
        // Keyframes at least 1/10 s of trace time apart (the last excepted), a paused stretch
        // (the time stands still) giving none.
        let times = keyframes.compactMap { reader.time(ofFrameAt: $0) }
        #expect(times.count == keyframes.count && keyframes.count >= 2)
        #expect(zip(times.dropLast(), times.dropFirst().dropLast()).allSatisfy { $1 - $0 >= 0.1 - 1e-9 })
        let animations = elements.filter { $0.name == "animate" || $0.name == "animateTransform" }
        #expect(!animations.isEmpty)
        for animation in animations {
            let values = try #require(animation.attributes["values"]).split(separator: ";", omittingEmptySubsequences: false)
            let times = try #require(animation.attributes["keyTimes"]).split(separator: ";").compactMap { Double($0) }
            #expect(values.count == times.count)
            #expect(times.first == 0 && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
            if animation.attributes["attributeName"] == "visibility" {
                // Discrete: shown from one key time, hidden from another.
                #expect(animation.attributes["calcMode"] == "discrete")
            } else {
                #expect(times.last == 1)
                // What does not move is drawn fixed, not animated.
                #expect(Set(values).count > 1, "\(animation.attributes)")
            }
        }
        // Every item of the last keyframe is a group of shapes.
        let last = try #require(reader.frame(at: keyframes.last!))
        let shapes = elements.filter { Self.shapeClasses.contains($0.attributes["class"] ?? "") }
        #expect(shapes.count >= last.scene.items.reduce(0) { $0 + $1.parts.count })
    }
}
