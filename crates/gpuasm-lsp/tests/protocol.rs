//! The server driven as an editor drives it: initialize, open, edit, and
//! every request, with the answers checked.

mod common;

use common::{at, uri, Client};
use gpuasm_lsp::Options;
use lsp_types::request::*;
use lsp_types::*;
use serde_json::json;

/// A compute shader whose one mistake is an integer add of floats.
const SHADER: &str = "; Version: 1.0
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %out DescriptorSet 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
        %one = OpConstant %float 1
%_ptr_Private_float = OpTypePointer Private %float
        %out = OpVariable %_ptr_Private_float Private
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %sum = OpIAdd %uint %one %one
               OpStore %out %one
               OpReturn
               OpFunctionEnd
";

fn doc_id(u: &Uri) -> TextDocumentIdentifier {
    TextDocumentIdentifier::new(u.clone())
}

#[test]
fn diagnostics_follow_the_edits() {
    let mut c = Client::start(Options::default(), json!(null));
    let u = uri("file:///shader.spvasm");
    // An assembler error first: a misspelt enumerant.
    let broken = SHADER.replace("OpCapability Shader", "OpCapability Shadr");
    c.open(&u, &broken);
    let d = c.diagnostics(&u);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].severity, Some(DiagnosticSeverity::ERROR));
    assert_eq!(d[0].range.start, Position::new(1, 28));
    assert!(d[0].message.contains("Shadr") && d[0].message.contains("help: "), "{}", d[0].message);
    // Fixed by a ranged edit: the validator's error now, on the add.
    let fix = json!([{"range": {"start": {"line": 1, "character": 28}, "end": {"line": 1, "character": 33}}, "text": "Shader"}]);
    c.change(&u, 2, fix);
    let d = c.diagnostics(&u);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].message, "Expected int scalar or vector type as operand: IAdd operand index 2");
    assert_eq!(d[0].range, Range::new(Position::new(15, 8), Position::new(15, 37)));
    assert_eq!(d[0].source.as_deref(), Some("gpuasm val"));
    // A whole-text change to a valid module clears them.
    let valid = SHADER.replace("%sum = OpIAdd %uint %one %one", "%sum = OpFAdd %float %one %one");
    c.change(&u, 3, json!([{"text": valid}]));
    assert_eq!(c.diagnostics(&u), []);
    // Closing clears them too.
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": u.as_str()}}));
    assert_eq!(c.diagnostics(&u), []);
    c.stop();
}

#[test]
fn validator_errors_point_at_the_ids_they_name() {
    // The store's two operands are defined elsewhere: the error names both.
    let text = SHADER.replace("OpStore %out %one", "OpStore %out %uint_7").replace(
        "        %one = OpConstant %float 1\n",
        "        %one = OpConstant %float 1\n     %uint_7 = OpConstant %uint 7\n",
    );
    let text = text.replace("%sum = OpIAdd %uint %one %one", "%sum = OpFAdd %float %one %one");
    let mut c = Client::start(Options::default(), json!(null));
    let u = uri("file:///related.spvasm");
    c.open(&u, &text);
    let d = c.diagnostics(&u);
    assert_eq!(d.len(), 1, "{d:?}");
    // spirv-val's words for this module.
    assert_eq!(d[0].message, "OpStore Pointer <id> '2[%2]'s type does not match Object <id> '8[%uint_7]'s type.");
    assert_eq!(d[0].range.start.line, 17);
    let related: Vec<_> =
        d[0].related_information.iter().flatten().map(|r| (r.location.range.start.line, r.message.as_str())).collect();
    assert_eq!(related, [(13, "%out is defined here"), (11, "%uint_7 is defined here")]);
    c.stop();
}

#[test]
fn the_target_environment_comes_from_the_options() {
    // Under Vulkan a Private variable of a GLCompute shader is fine, but
    // the add is still wrong, and OpExecutionMode LocalSize is fine:
    // what changes is the environment's own rules. An OpCapability
    // Kernel is refused under Vulkan.
    let text = SHADER.replace("OpCapability Shader", "OpCapability Shader\n               OpCapability Kernel");
    let u = uri("file:///kernel.spvasm");
    let mut plain = Client::start(Options::default(), json!(null));
    plain.open(&u, &text);
    let universal = plain.diagnostics(&u);
    // A workspace setting changes the environment, and the diagnostics.
    plain.notify("workspace/didChangeConfiguration", json!({"settings": {"gpuasm": {"targetEnv": "vulkan1.0"}}}));
    let configured = plain.diagnostics(&u);
    plain.stop();
    let mut vulkan = Client::start(Options::default(), json!({"targetEnv": "vulkan1.0"}));
    vulkan.open(&u, &text);
    let under_vulkan = vulkan.diagnostics(&u);
    vulkan.stop();
    assert!(under_vulkan.iter().any(|d| d.message.contains("Vulkan")), "{under_vulkan:?}");
    assert!(!universal.iter().any(|d| d.message.contains("Vulkan")), "{universal:?}");
    assert_eq!(configured, under_vulkan);
    // `--target-env` does the same.
    let mut cli = Client::start(Options { target_env: Some(gpuasm_spirv::TargetEnv::Vulkan(0)) }, json!(null));
    cli.open(&u, &text);
    assert_eq!(cli.diagnostics(&u), under_vulkan);
    cli.stop();
}

#[test]
fn navigation_hover_and_rename() {
    let mut c = Client::start(Options::default(), json!(null));
    let u = uri("file:///nav.spvasm");
    c.open(&u, SHADER);
    c.diagnostics(&u);

    // Definition of `%one` from its use in the add.
    let use_of_one = at(&u, SHADER, "%one", 2, 1);
    let def = c.request::<GotoDefinition>(GotoDefinitionParams {
        text_document_position_params: use_of_one.clone(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let def_pos = at(&u, SHADER, "%one", 0, 0).position;
    match def {
        Some(GotoDefinitionResponse::Scalar(loc)) => assert_eq!(loc.range.start, def_pos),
        other => panic!("{other:?}"),
    }

    // References with and without the definition; highlights.
    let refs = |c: &mut Client, include_declaration| {
        c.request::<References>(ReferenceParams {
            text_document_position: use_of_one.clone(),
            context: ReferenceContext { include_declaration },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap()
        .len()
    };
    assert_eq!((refs(&mut c, true), refs(&mut c, false)), (4, 3));
    let highlights = c
        .request::<DocumentHighlightRequest>(DocumentHighlightParams {
            text_document_position_params: use_of_one.clone(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap();
    let writes = highlights.iter().filter(|h| h.kind == Some(DocumentHighlightKind::WRITE)).count();
    assert_eq!((highlights.len(), writes), (4, 1));

    // Hovers: an id (type spelled out, decorations), an opcode, an enumerant.
    let hover = |c: &mut Client, p: TextDocumentPositionParams| {
        let h = c.request::<HoverRequest>(HoverParams {
            text_document_position_params: p,
            work_done_progress_params: Default::default(),
        });
        match h.map(|h| h.contents) {
            Some(HoverContents::Markup(m)) => m.value,
            other => panic!("{other:?}"),
        }
    };
    let h = hover(&mut c, at(&u, SHADER, "%out", 1, 2));
    assert!(h.contains("OpVariable %_ptr_Private_float Private"), "{h}");
    assert!(h.contains("Type: pointer to Private float32"), "{h}");
    assert!(h.contains("OpDecorate %out DescriptorSet 0"), "{h}");
    let h = hover(&mut c, at(&u, SHADER, "OpIAdd", 0, 3));
    assert!(h.contains("%result = OpIAdd <IdResultType> <Operand 1: IdRef> <Operand 2: IdRef>"), "{h}");
    assert!(h.contains("class Arithmetic"), "{h}");
    let h = hover(&mut c, at(&u, SHADER, "GLCompute", 0, 0));
    assert!(h.contains("**GLCompute** = 5"), "{h}");
    assert!(h.contains("Capabilities (any of): Shader"), "{h}");

    // Rename: refused onto a name in use, done otherwise.
    let rename = |c: &mut Client, new_name: &str| {
        let params = RenameParams {
            text_document_position: use_of_one.clone(),
            new_name: new_name.into(),
            work_done_progress_params: Default::default(),
        };
        c.request_raw(Rename::METHOD, serde_json::to_value(params).unwrap())
    };
    let refused = rename(&mut c, "%float").unwrap_err();
    assert!(refused.message.contains("already in use"), "{}", refused.message);
    let edit: WorkspaceEdit = serde_json::from_value(rename(&mut c, "%float_1").unwrap()).unwrap();
    let edits = &edit.changes.unwrap()[&u];
    assert_eq!(edits.len(), 4);
    assert!(edits.iter().all(|e| e.new_text == "%float_1"));
    let prepared = c.request::<PrepareRenameRequest>(use_of_one.clone());
    assert!(matches!(prepared, Some(PrepareRenameResponse::Range(r)) if r.start.line == 15));
    c.stop();
}

#[test]
fn outline_folding_tokens_completion_and_formatting() {
    let mut c = Client::start(Options::default(), json!(null));
    let u = uri("file:///outline.spvasm");
    c.open(&u, SHADER);
    c.diagnostics(&u);

    let symbols = c.request::<DocumentSymbolRequest>(DocumentSymbolParams {
        text_document: doc_id(&u),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let Some(DocumentSymbolResponse::Nested(symbols)) = symbols else { panic!("{symbols:?}") };
    let names: Vec<_> = symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["main", "%void", "%fn", "%float", "%uint", "%one", "%_ptr_Private_float", "%out", "%main"]);
    assert_eq!(symbols[8].children.as_ref().unwrap()[0].name, "%entry");

    let folds = c
        .request::<FoldingRangeRequest>(FoldingRangeParams {
            text_document: doc_id(&u),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .unwrap();
    assert_eq!(folds.iter().map(|f| (f.start_line, f.end_line)).collect::<Vec<_>>(), [(13, 18)]);

    let tokens = c.request::<SemanticTokensFullRequest>(SemanticTokensParams {
        text_document: doc_id(&u),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let Some(SemanticTokensResult::Tokens(tokens)) = tokens else { panic!() };
    // One per word and comment.
    assert_eq!(tokens.data.len(), 1 + SHADER.split_whitespace().filter(|w| !w.starts_with(';')).count() - 2);

    // Completion after `OpVariable %t `: storage classes.
    let completion = |c: &mut Client, p: TextDocumentPositionParams| {
        let items = match c.request::<Completion>(CompletionParams {
            text_document_position: p,
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
            context: None,
        }) {
            Some(CompletionResponse::Array(items)) => items,
            Some(CompletionResponse::List(list)) => list.items,
            None => Vec::new(),
        };
        items.into_iter().map(|i| i.label).collect::<Vec<_>>()
    };
    let labels = completion(&mut c, at(&u, SHADER, "Private\n", 0, 0));
    assert!(labels.contains(&"Private".to_string()) && labels.contains(&"Function".to_string()), "{labels:?}");
    let labels = completion(&mut c, at(&u, SHADER, "OpFunctionEnd", 0, 0));
    assert!(labels.contains(&"OpFunctionEnd".to_string()) && labels.len() > 500, "{}", labels.len());
    // Types where the add wants its result type.
    let labels = completion(&mut c, at(&u, SHADER, "%uint %one", 0, 1));
    assert_eq!(labels, ["%_ptr_Private_float", "%float", "%fn", "%uint", "%void"]);

    // Formatting: the text is laid out already; a messy one is not.
    let format = |c: &mut Client| {
        c.request::<Formatting>(DocumentFormattingParams {
            text_document: doc_id(&u),
            options: Default::default(),
            work_done_progress_params: Default::default(),
        })
    };
    assert_eq!(format(&mut c), Some(vec![]));
    let messy: String = SHADER.lines().map(|l| format!("{}\n", l.trim())).collect();
    c.change(&u, 2, json!([{"text": messy}]));
    let edits = format(&mut c).unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].new_text, SHADER);
    c.stop();
}

#[test]
fn bad_requests_get_error_answers() {
    let mut c = Client::start(Options::default(), json!(null));
    let e = c.request_raw("textDocument/hover", json!({"nonsense": 1})).unwrap_err();
    assert_eq!(e.code, lsp_server::ErrorCode::InvalidParams as i32);
    let e = c.request_raw("workspace/noSuchThing", json!({})).unwrap_err();
    assert_eq!(e.code, lsp_server::ErrorCode::MethodNotFound as i32);
    // A request on a document never opened: no answer, no error.
    let p = at(&uri("file:///nowhere.spvasm"), "x", "x", 0, 0);
    let h = c.request::<HoverRequest>(HoverParams {
        text_document_position_params: p,
        work_done_progress_params: Default::default(),
    });
    assert!(h.is_none());
    c.stop();
}
