import Foundation
import Testing

import Dynamics

/// A diagnostic's `kind` through the public API only: what a program can switch on, naming the
/// item or behaviour it concerns, while `message` stays the sentence for people.
@Suite struct DynamicsDiagnosticTests {
    /// The initialiser without a kind still compiles and says `.other`.
    @Test func aDiagnosticMadeFromAMessageIsOfKindOther() {
        let d = DynamicsDiagnostic(message: "made by an app", severity: .note)
        #expect(d.kind == .other)
        #expect(d.description == "note: made by an app")
        #expect(DynamicsDiagnostic(message: "x").severity == .warning)
    }

    /// The handler hears the kind as it happens, naming the item by its `ObjectIdentifier`: an app
    /// can tell which of its items was refused without reading the message.
    @Test func theHandlerCanTellWhichItemAKindConcerns() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let box = BasicDynamicItem(center: CGPoint(x: 100, y: 100), size: CGSize(width: 20, height: 20), name: "box")
        let nowhere = BasicDynamicItem(center: CGPoint(x: CGFloat.nan, y: 100), size: CGSize(width: 20, height: 20), name: "nowhere")
        var heard: [DynamicsDiagnostic.Kind] = []
        animator.diagnosticHandler = { heard.append($0.kind) }
        animator.addBehavior(GravityBehavior(items: [box, nowhere]))
        animator.step()
        #expect(heard == [.unusableItemState(item: ObjectIdentifier(nowhere), property: "center")])
        #expect(nowhere.center.x == 0 && nowhere.center.y.isFinite)   // from the fallback the message names
        #expect(box.center.y > 100)        // the other item carries on
    }

    /// Equal kinds and messages make equal diagnostics, so a program can keep a set of them; the
    /// same refusal for two items is two kinds.
    @Test func diagnosticsAreHashableByKindMessageAndSeverity() {
        let a = BasicDynamicItem(center: .zero, size: CGSize(width: 1, height: 1))
        let b = BasicDynamicItem(center: .zero, size: CGSize(width: 1, height: 1))
        let ka = DynamicsDiagnostic.Kind.itemNotInAnimator(item: ObjectIdentifier(a))
        let kb = DynamicsDiagnostic.Kind.itemNotInAnimator(item: ObjectIdentifier(b))
        #expect(ka != kb)
        let set: Set<DynamicsDiagnostic> = [
            DynamicsDiagnostic(kind: ka, message: "m"), DynamicsDiagnostic(kind: ka, message: "m"),
            DynamicsDiagnostic(kind: kb, message: "m"), DynamicsDiagnostic(kind: ka, message: "m", severity: .note),
        ]
        #expect(set.count == 3)
    }

    /// Every refused value names its property in Swift's spelling, and the kind says whether it
    /// was not finite or out of range: NaN and 0 for `stepDuration`, 0 for `substeps`.
    @Test func aRefusedValueSaysWhyAndWhichProperty() {
        let animator = DynamicAnimator()
        animator.stepDuration = .nan
        animator.stepDuration = 0
        animator.substeps = 0
        #expect(animator.diagnostics.map(\.kind) == [
            .nonFiniteValue(property: "DynamicAnimator.stepDuration"),
            .valueOutOfRange(property: "DynamicAnimator.stepDuration"),
            .valueOutOfRange(property: "DynamicAnimator.substeps"),
        ])
        #expect(animator.stepDuration == 1.0 / 60 && animator.substeps == 4)
    }

    /// A behaviour's diagnostics from before it joined an animator keep their kind when they
    /// arrive, and a refused snapshot carries the error `restore` threw.
    @Test func pendingAndSnapshotDiagnosticsKeepTheirKind() {
        let item = BasicDynamicItem(center: CGPoint(x: 10, y: 10), size: CGSize(width: 10, height: 10))
        let gravity = GravityBehavior(items: [item])
        gravity.magnitude = .infinity
        let animator = DynamicAnimator()
        animator.addBehavior(gravity)
        #expect(animator.diagnostics.map(\.kind) == [.nonFiniteValue(property: "GravityBehavior.magnitude")])

        let other = DynamicAnimator()
        do {
            try other.restore(animator.snapshot())
            Issue.record("a snapshot of another animator was restored")
        } catch let error as DynamicsSnapshotError {
            #expect(other.diagnostics.last?.kind == .snapshotRefused(error))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
