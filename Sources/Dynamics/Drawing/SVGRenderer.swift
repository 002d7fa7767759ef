import Foundation

/// Draws an animator, a recorded frame, or a whole trace as SVG: a picture for documents and web
/// pages, and for people who would rather look than read numbers.
///
/// It draws what ``ASCIIRenderer`` draws, from the same ``TraceScene`` and poses: the
/// reference bounds as a frame, boundaries as grey lines, attachments as dashed lines (anchors
/// as small circles, snap points as small crosses), and items as filled shapes — rectangles
/// blue, ellipses orange, `.path` items green, every other item a lighter shade so touching
/// items stay apart, an item a trace does not describe as a small dark dot.
///
/// ``animatedSVG(_:from:through:)`` plays a trace with SMIL `<animateTransform>` (no scripts):
/// each item is a group whose translation and rotation take one value per *keyframe*. Frames
/// are decimated to at most ``keyframesPerSecond`` of trace time, and to at most
/// ``maximumKeyframes`` in all, so a file stays small; motion between keyframes is
/// interpolated linearly, and the animation loops after holding its last frame for a second.
/// What never moves is drawn fixed, and every animated element starts at its first keyframe, so
/// a viewer without SMIL shows the trace's first frame.
/// Coordinates are rounded to ``decimals`` places (0.1 pt by default): a picture, not a record —
/// the CSV keeps the exact values.
///
/// The picture's coordinates are the animator's points (y down, as in SVG); ``scale`` sets how
/// many SVG pixels a point is in the `width` and `height` attributes.
///
/// ```swift
/// let svg = SVGRenderer().svg(animator)
/// try svg.write(toFile: "scene.svg", atomically: true, encoding: .utf8)
/// ```
public struct SVGRenderer: Sendable {
    /// SVG pixels per point in the `width` and `height` attributes. Default 1; non-finite or
    /// non-positive values mean 1.
    public var scale: Double = 1

    /// Whether to draw collision boundaries. Default `true`.
    public var showsBoundaries = true

    /// Whether to draw attachments, anchors and snap points. Default `true`.
    public var showsAttachments = true

    /// The region to show, in points; default `nil`: the reference bounds, or the items' box
    /// (over every keyframe, for an animation) when there are none.
    public var visibleRect: CGRect? = nil

    /// The most keyframes per second of trace time in an animation. Default 20; values below
    /// 0.1 or non-finite mean 20.
    public var keyframesPerSecond: Double = 20

    /// The most keyframes in an animation (the interval between them grows to fit). Default
    /// 600; values below 2 mean 2.
    public var maximumKeyframes = 600

    /// Decimal places of coordinates (pt) and angles (degrees), 0…6. Default 1.
    public var decimals = 1

    /// Creates a renderer with the defaults.
    public init() {}

    // MARK: Still pictures

    /// The animator now, as an SVG document.
    ///
    /// - Parameter animator: The animator to draw (pending behaviour changes are applied first,
    ///   as ``ASCIIRenderer`` does).
    public func svg(_ animator: DynamicAnimator) -> String {
        animator.ensureSynced()
        return svg(animator.makeFrameReport(steps: 0), of: animator)
    }

    /// The frame a frame observer receives, drawn from its report, as an SVG document: the
    /// poses from the report, the scene from the animator's cache (described again only after
    /// it changed), so a frame costs no second pass over the items' poses.
    ///
    /// Inside the observer the picture is ``svg(_:)``'s, except that the
    /// title names the report's frame (``FrameReport/index``) where `svg(animator)` names the
    /// number the next frame will have.
    ///
    /// ```swift
    /// let renderer = SVGRenderer()
    /// animator.addFrameObserver { report in print(renderer.svg(report, of: animator).count) }
    /// ```
    ///
    /// - Parameters:
    ///   - report: The frame's poses: the report the observer receives.
    ///   - animator: The animator the report came from. Pending behaviour changes are not
    ///     applied: the world is drawn as the frame left it (``svg(_:)`` applies them first).
    public func svg(_ report: FrameReport, of animator: DynamicAnimator) -> String {
        svg(report, scene: animator.traceScene())
    }

    /// A recorded frame as an SVG document.
    ///
    /// - Parameters:
    ///   - report: The frame's poses.
    ///   - scene: What the items look like: `scene.items[i]` is drawn at `report.items[i]`.
    public func svg(_ report: FrameReport, scene: TraceScene) -> String {
        let region = shownRegion(scene, frames: [report])
        var out = documentStart(region: region, title: "t \(number(report.time, 2)) s, frame \(report.index)")
        out += staticScenery(scene)
        if showsAttachments {
            for attachment in scene.attachments {
                guard let line = Self.line(attachment, poses: report.items) else { continue }
                out += "<line class=\"a\" x1=\"\(number(line.0.x))\" y1=\"\(number(line.0.y))\" x2=\"\(number(line.1.x))\" y2=\"\(number(line.1.y))\"/>\n"
            }
        }
        for (index, pose) in report.items.enumerated() {
            let item = index < scene.items.count ? scene.items[index] : TraceScene.Item(key: "", parts: [])
            out += "<g transform=\"translate(\(number(pose.center.x)),\(number(pose.center.y))) rotate(\(number(Double(pose.angle) * 180 / .pi)))\">"
            out += shapes(item, alternate: index % 2 == 1)
            out += "</g>\n"
        }
        if showsAttachments {
            for attachment in scene.attachments {
                if let anchor = attachment.anchor { out += anchorMark(anchor) }
            }
            for point in scene.snapPoints { out += snapMark(point) }
        }
        return out + "</svg>\n"
    }

    // MARK: Animation

    /// A trace (or the frames `first…last` of it) as an animated SVG document: SMIL animations,
    /// no scripts, frames decimated to keyframes (see the type's summary). The scenery —
    /// reference bounds and boundaries — is drawn as at the first frame. An empty trace gives a
    /// picture of nothing.
    ///
    /// - Parameters:
    ///   - reader: The trace. Frames are read through its index; the reader is left after the
    ///     last keyframe.
    ///   - first: The first frame's position in the file; default 0.
    ///   - last: The last frame's position; default `nil`: the trace's last frame.
    public func animatedSVG(_ reader: TraceReader, from first: Int = 0, through last: Int? = nil) -> String {
        let positions = keyframePositions(reader, from: max(0, first), through: last)
        guard let firstPosition = positions.first, let opening = reader.frame(at: firstPosition) else {
            return svg(FrameReport(index: 0, time: 0, steps: 0, items: []), scene: TraceScene())
        }
        var animation = Animation()
        let scenery = opening.scene
        for (k, position) in positions.enumerated() {
            guard let frame = k == 0 ? opening : reader.frame(at: position) else { break }
            animation.add(frame)
        }
        let start = animation.times.first ?? 0
        let end = animation.times.last ?? 0
        // Hold the last keyframe for a second (or 10 % of a long trace) before looping.
        let hold = max(1, 0.1 * (end - start))
        let duration = max(end - start + hold, 0.1)
        let keyTimes = animation.times.map { ($0 - start) / duration }

        var region = CGRect.zero
        if let rect = visibleRect?.standardized, ASCIIRenderer.isUsable(rect) {
            region = rect
        } else if let bounds = scenery.referenceBounds, ASCIIRenderer.isUsable(bounds) {
            region = bounds
        } else {
            region = Self.padded(animation.box.rect ?? CGRect(x: 0, y: 0, width: 100, height: 100))
        }
        let title = "t \(number(start, 2))–\(number(end, 2)) s, \(positions.count) keyframes"
        var out = documentStart(region: region, title: title)
        out += staticScenery(scenery)
        let timing = "dur=\"\(number(duration, 3))s\" repeatCount=\"indefinite\""
        let count = animation.times.count

        func times(_ from: Int, _ to: Int) -> String {
            var list = keyTimes[from ... to].map { number($0, 4) }
            if from > 0 { list.insert("0", at: 0) }
            list.append("1")
            return list.joined(separator: ";")
        }
        func values(_ list: [String], from: Int, to: Int) -> String {
            var all = list
            if from > 0 { all.insert(list[0], at: 0) }
            all.append(list[list.count - 1])
            return all.joined(separator: ";")
        }
        func visibility(_ from: Int, _ to: Int) -> String {
            if from == 0 && to == count - 1 { return "" }
            var values = ["hidden", "visible"], times = ["0", number(keyTimes[from], 4)]
            if from == 0 { values = ["visible"]; times = ["0"] }
            if to < count - 1 {
                values.append("hidden")
                times.append(number(keyTimes[to + 1], 4))
            }
            return "<animate attributeName=\"visibility\" values=\"\(values.joined(separator: ";"))\" keyTimes=\"\(times.joined(separator: ";"))\" calcMode=\"discrete\" \(timing)/>"
        }

        if showsAttachments {
            for track in animation.lines where !track.values.isEmpty {
                let to = track.start + track.values.count - 1
                let hidden = track.start > 0 || to < count - 1
                // A coordinate that never changes (a fixed anchor) is an attribute, not an animation.
                var fixed = "", animations = ""
                for (n, attribute) in ["x1", "y1", "x2", "y2"].enumerated() {
                    let list = track.values.map { number($0[n]) }
                    if let value = Self.constant(list) {
                        fixed += " \(attribute)=\"\(value)\""
                    } else {
                        // The first value as the attribute too: what a viewer without SMIL shows.
                        fixed += " \(attribute)=\"\(list[0])\""
                        animations += "<animate attributeName=\"\(attribute)\" values=\"\(values(list, from: track.start, to: to))\" keyTimes=\"\(times(track.start, to))\" \(timing)/>"
                    }
                }
                out += "<line class=\"a\"\(fixed)\(hidden ? " visibility=\"hidden\"" : "")>" + visibility(track.start, to) + animations
                out += "</line>\n"
            }
        }
        for track in animation.items {
            let to = track.start + track.poses.count - 1
            let hidden = track.start > 0 || to < count - 1
            let translations = track.poses.map { "\(number($0.x)),\(number($0.y))" }
            let rotations = track.poses.map { number($0.degrees) }
            let t = times(track.start, to)
            out += "<g\(hidden ? " visibility=\"hidden\"" : "")>" + visibility(track.start, to)
            // A pose that never changes (an item at rest throughout, one that never turns) is a
            // fixed transform: smaller files, same picture.
            if let fixed = Self.constant(translations) {
                out += "<g transform=\"translate(\(fixed))\">"
            } else {
                out += "<g transform=\"translate(\(translations[0]))\"><animateTransform attributeName=\"transform\" type=\"translate\" values=\"\(values(translations, from: track.start, to: to))\" keyTimes=\"\(t)\" \(timing)/>"
            }
            if let fixed = Self.constant(rotations) {
                out += fixed == "0" ? "<g>" : "<g transform=\"rotate(\(fixed))\">"
            } else {
                out += "<g transform=\"rotate(\(rotations[0]))\"><animateTransform attributeName=\"transform\" type=\"rotate\" values=\"\(values(rotations, from: track.start, to: to))\" keyTimes=\"\(t)\" \(timing)/>"
            }
            out += shapes(track.item, alternate: track.position % 2 == 1)
            out += "</g></g></g>\n"
        }
        if showsAttachments {
            for track in animation.marks where !track.values.isEmpty {
                let to = track.start + track.values.count - 1
                let hidden = track.start > 0 || to < count - 1
                let list = track.values.map { "\(number($0[0])),\(number($0[1]))" }
                if let fixed = Self.constant(list) {
                    out += "<g transform=\"translate(\(fixed))\"\(hidden ? " visibility=\"hidden\"" : "")>" + visibility(track.start, to)
                } else {
                    out += "<g transform=\"translate(\(list[0]))\"\(hidden ? " visibility=\"hidden\"" : "")>" + visibility(track.start, to)
                    out += "<animateTransform attributeName=\"transform\" type=\"translate\" values=\"\(values(list, from: track.start, to: to))\" keyTimes=\"\(times(track.start, to))\" \(timing)/>"
                }
                out += track.isAnchor ? anchorMark(.zero) : snapMark(.zero)
                out += "</g>\n"
            }
        }
        return out + "</svg>\n"
    }

    /// The frames ``animatedSVG(_:from:through:)`` uses as keyframes, by position in the file:
    /// the first, then each frame at least one keyframe interval (1 / ``keyframesPerSecond``, or
    /// longer to keep within ``maximumKeyframes``) after the last one taken, and the last.
    ///
    /// - Parameters:
    ///   - reader: The trace (scanned to its end, or to `last`, to learn the times).
    ///   - first: The first frame's position; default 0.
    ///   - last: The last frame's position; default `nil`: the trace's last frame.
    public func keyframePositions(_ reader: TraceReader, from first: Int = 0, through last: Int? = nil) -> [Int] {
        guard let startTime = reader.time(ofFrameAt: first) else { return [] }
        var end = first
        while last.map({ end < $0 }) ?? true, reader.time(ofFrameAt: end + 1) != nil {
            end += 1
        }
        let endTime = reader.time(ofFrameAt: end) ?? startTime
        let rate = keyframesPerSecond.isFinite && keyframesPerSecond >= 0.1 ? keyframesPerSecond : 20
        let most = max(2, maximumKeyframes)
        let interval = max(1 / rate, (endTime - startTime) / Double(most - 1))
        var positions = [first]
        var nextTime = startTime + interval
        var p = first + 1
        while p < end {
            if let t = reader.time(ofFrameAt: p), t >= nextTime - 1e-9 {
                positions.append(p)
                nextTime = t + interval
                if positions.count == most - 1 { break }
            }
            p += 1
        }
        if end > first { positions.append(end) }
        return positions
    }

    // MARK: Pieces

    private var places: Int { min(max(decimals, 0), 6) }

    /// The value every entry of `list` has, or nil when they differ (or there are none).
    static func constant(_ list: [String]) -> String? {
        guard let first = list.first, list.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// `value` with at most `places` decimals, without trailing zeros (`12`, `12.5`, `-0.1`).
    func number(_ value: Double, _ places: Int? = nil) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.\(places ?? self.places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return text
    }

    func number(_ value: CGFloat) -> String { number(Double(value)) }

    private func shownRegion(_ scene: TraceScene, frames: [FrameReport]) -> CGRect {
        if let rect = visibleRect?.standardized, ASCIIRenderer.isUsable(rect) { return rect }
        if let bounds = scene.referenceBounds, ASCIIRenderer.isUsable(bounds) { return bounds }
        var box = BoundingBox()
        for frame in frames { ItemPlacement.addExtent(of: scene, poses: frame.items, to: &box) }
        for p in scene.snapPoints { box.add(p) }
        for a in scene.attachments { if let p = a.anchor { box.add(p) } }
        if box.isEmpty { for b in scene.boundaries { for p in b.points { box.add(p) } } }
        return Self.padded(box.rect ?? CGRect(x: 0, y: 0, width: 100, height: 100))
    }

    /// A fitted box with the same margin as the ASCII picture's: 5 % of its larger side plus 1 pt.
    static func padded(_ rect: CGRect) -> CGRect {
        let pad = 0.05 * max(rect.width, rect.height, 10) + 1
        return rect.insetBy(dx: -pad, dy: -pad)
    }

    private func documentStart(region: CGRect, title: String) -> String {
        let s = scale.isFinite && scale > 0 ? scale : 1
        // A margin of 2 pt so the frame's stroke is not cut.
        let view = region.insetBy(dx: -2, dy: -2)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(number(view.minX)) \(number(view.minY)) \(number(view.width)) \(number(view.height))" \
            width="\(number(Double(view.width) * s))" height="\(number(Double(view.height) * s))">
            <title>\(Self.escape(title))</title>
            <style>
            .f{fill:#fbfbf8;stroke:#9a9a9a;stroke-width:1.5}.b{fill:none;stroke:#555;stroke-width:2;stroke-linejoin:round}
            .a{stroke:#888;stroke-width:1;stroke-dasharray:3 2}.o{fill:#fff;stroke:#555;stroke-width:1.5}.x{stroke:#c03;stroke-width:1.5}
            .r{fill:#3d7cc9}.ra{fill:#86b2e3}.e{fill:#e0772e}.ea{fill:#f2b07a}.p{fill:#4a9a4a}.pa{fill:#93c98b}.u{fill:#333}
            .r,.ra,.e,.ea,.p,.pa{stroke:#2b2b2b;stroke-width:0.6;stroke-opacity:0.5}
            </style>

            """
    }

    /// The reference bounds' frame and the boundaries.
    private func staticScenery(_ scene: TraceScene) -> String {
        var out = ""
        if let bounds = scene.referenceBounds, ASCIIRenderer.isUsable(bounds) {
            out += "<rect class=\"f\" x=\"\(number(bounds.minX))\" y=\"\(number(bounds.minY))\" width=\"\(number(bounds.width))\" height=\"\(number(bounds.height))\"/>\n"
        }
        if showsBoundaries {
            for boundary in scene.boundaries {
                let points = boundary.points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
                out += "<\(boundary.isClosed ? "polygon" : "polyline") class=\"b\" points=\"\(points)\"/>\n"
            }
        }
        return out
    }

    /// An item's parts in its own space.
    private func shapes(_ item: TraceScene.Item, alternate: Bool) -> String {
        if item.parts.isEmpty { return "<circle class=\"u\" r=\"2\"/>" }
        var out = ""
        for part in item.parts {
            var transform = ""
            if part.center != .zero || part.angle != 0 {
                transform = " transform=\"translate(\(number(part.center.x)),\(number(part.center.y)))"
                    + (part.angle != 0 ? " rotate(\(number(Double(part.angle) * 180 / .pi)))" : "") + "\""
            }
            let suffix = alternate ? "a" : ""
            switch part.shape {
            case .rectangle(let size):
                out += "<rect class=\"r\(suffix)\" x=\"\(number(-Double(size.width) / 2))\" y=\"\(number(-Double(size.height) / 2))\" width=\"\(number(size.width))\" height=\"\(number(size.height))\"\(transform)/>"
            case .ellipse(let size):
                out += "<ellipse class=\"e\(suffix)\" rx=\"\(number(Double(size.width) / 2))\" ry=\"\(number(Double(size.height) / 2))\"\(transform)/>"
            case .path(let vertices):
                let points = vertices.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
                out += "<polygon class=\"p\(suffix)\" points=\"\(points)\"\(transform)/>"
            }
        }
        return out
    }

    private func anchorMark(_ p: CGPoint) -> String {
        "<circle class=\"o\" cx=\"\(number(p.x))\" cy=\"\(number(p.y))\" r=\"3\"/>\n"
    }

    private func snapMark(_ p: CGPoint) -> String {
        let x = Double(p.x), y = Double(p.y)
        return "<path class=\"x\" d=\"M\(number(x - 4)),\(number(y - 4))L\(number(x + 4)),\(number(y + 4))M\(number(x - 4)),\(number(y + 4))L\(number(x + 4)),\(number(y - 4))\"/>\n"
    }

    /// An attachment's line, in points: anchor → item, or item → item.
    static func line(_ attachment: TraceScene.Attachment, poses: [FrameReport.Item]) -> (CGPoint, CGPoint)? {
        let ends = attachment.items.compactMap { ItemPlacement.point($0, poses: poses) }
        guard let first = ends.first else { return nil }
        if let anchor = attachment.anchor { return (anchor, first) }
        return ends.count > 1 ? (first, ends[1]) : nil
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// The tracks of an animation, collected keyframe by keyframe.
private struct Animation {
    /// One item's life on screen: the same description at the same position over consecutive
    /// keyframes (a new description, or a gap, starts a new track).
    struct ItemTrack {
        var position: Int
        var item: TraceScene.Item
        var start: Int
        var poses: [(x: Double, y: Double, degrees: Double)]
    }

    /// An attachment line or a mark, by its place in the scene's list.
    struct Track {
        var start: Int
        var values: [[Double]]
        var isAnchor = false
    }

    var times: [Double] = []
    var items: [ItemTrack] = []
    /// The open item track of each position.
    var open: [Int: Int] = [:]
    var lines: [Track] = []
    var openLines: [Int: Int] = [:]
    var marks: [Track] = []
    var openMarks: [Int: Int] = [:]
    var box = BoundingBox()

    mutating func add(_ frame: TraceFrame) {
        let k = times.count
        times.append(frame.report.time)
        var seen: Set<Int> = []
        for (position, pose) in frame.report.items.enumerated() {
            let item = position < frame.scene.items.count ? frame.scene.items[position] : TraceScene.Item(key: "", parts: [])
            var degrees = Double(pose.angle) * 180 / .pi
            seen.insert(position)
            if let t = open[position], items[t].item == item, items[t].start + items[t].poses.count == k {
                // Unwrap, so the interpolation turns the short way.
                let previous = items[t].poses[items[t].poses.count - 1].degrees
                degrees = previous + remainder(degrees - previous, 360)
                items[t].poses.append((Double(pose.center.x), Double(pose.center.y), degrees))
            } else {
                open[position] = items.count
                items.append(ItemTrack(position: position, item: item, start: k,
                                       poses: [(Double(pose.center.x), Double(pose.center.y), degrees)]))
            }
        }
        for position in open.keys where !seen.contains(position) { open[position] = nil }

        var lineValues: [[Double]] = []
        var markValues: [(values: [Double], anchor: Bool)] = []
        for attachment in frame.scene.attachments {
            if let line = SVGRenderer.line(attachment, poses: frame.report.items) {
                lineValues.append([Double(line.0.x), Double(line.0.y), Double(line.1.x), Double(line.1.y)])
            }
            if let anchor = attachment.anchor { markValues.append(([Double(anchor.x), Double(anchor.y)], true)) }
        }
        for p in frame.scene.snapPoints { markValues.append(([Double(p.x), Double(p.y)], false)) }
        Self.extend(&lines, &openLines, with: lineValues.map { ($0, false) }, at: k)
        Self.extend(&marks, &openMarks, with: markValues, at: k)

        ItemPlacement.addExtent(of: frame.scene, poses: frame.report.items, to: &box)
        for a in frame.scene.attachments { if let p = a.anchor { box.add(p) } }
        for p in frame.scene.snapPoints { box.add(p) }
    }

    private static func extend(_ tracks: inout [Track], _ open: inout [Int: Int], with values: [(values: [Double], anchor: Bool)], at k: Int) {
        for (n, value) in values.enumerated() {
            if let t = open[n], tracks[t].isAnchor == value.anchor, tracks[t].start + tracks[t].values.count == k {
                tracks[t].values.append(value.values)
            } else {
                open[n] = tracks.count
                tracks.append(Track(start: k, values: [value.values], isAnchor: value.anchor))
            }
        }
        for n in open.keys where n >= values.count { open[n] = nil }
    }
}
