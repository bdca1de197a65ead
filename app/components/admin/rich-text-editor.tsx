/**
 * The article body editor (TipTap: StarterKit with headings, bold, italic,
 * lists, links, block quotes; pictures through TipTap's Image extension,
 * uploaded by the "Insert picture" dialog with their alt text). Loaded lazily
 * by article-body.tsx, so it is only fetched on the article form routes and
 * never on public pages.
 */
import Image from "@tiptap/extension-image";
import { NodeSelection, type EditorState } from "@tiptap/pm/state";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Bold, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Quote, Redo2, TextQuote, Undo2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { BODY_PICTURE_SRC, checkAlt } from "~/lib/body-pictures";
import { useDialogOpenings } from "./dialog-openings";
import { InsertPictureDialog } from "./insert-picture";
import { btnPrimary, btnSecondary, inputClass } from "./styles";

type Props = {
  /** "list": a short list (representative matters): bold, italic, lists and links only; no headings, quotes or pictures. */
  mode?: "article" | "list";
  initialHtml: string;
  onChange: (html: string) => void;
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
};

function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (!href) return null;
  if (/^(https?:|mailto:|tel:)/i.test(href)) return href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null; // javascript:, data:… are refused
  if (href.includes("@") && !href.includes("/")) return `mailto:${href}`;
  return `https://${href.replace(/^\/+/, "")}`;
}

/**
 * Pictures in the body: only the site's own stored body pictures (anything
 * else pasted is not taken in; the server's sanitiser would drop it anyway),
 * and no Markdown `![…](…)` shortcut, so every picture comes through the
 * dialog that asks for its description.
 */
const BodyPicture = Image.extend({
  parseHTML() {
    return [{ tag: "img[src]", getAttrs: (el) => (BODY_PICTURE_SRC.test(el.getAttribute("src") ?? "") ? null : false) }];
  },
  addInputRules() {
    return [];
  },
}).configure({ inline: false, allowBase64: false });

/** The picture selected in the body (a node selection on an image), if any. */
function selectedPicture(selection: EditorState["selection"]): NodeSelection | null {
  return selection instanceof NodeSelection && selection.node.type.name === "image" ? selection : null;
}

function ToolButton({
  label,
  pressed,
  onClick,
  disabled,
  children,
  buttonRef,
  hasPopup,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  disabled?: boolean;
  children: React.ReactNode;
  buttonRef?: React.Ref<HTMLButtonElement>;
  hasPopup?: "dialog";
}) {
  return (
    <button
      ref={buttonRef}
      aria-haspopup={hasPopup}
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className="rounded p-2 text-ink hover:bg-soft aria-pressed:bg-accent aria-pressed:text-white disabled:opacity-40"
    >
      {children}
    </button>
  );
}

/**
 * A field that opens under the toolbar (a link's address, a picture's
 * description): focused when it opens, Enter applies, Escape and Cancel close
 * it and put the focus back in the body; its error is tied to it.
 */
function ToolbarField(props: {
  label: string;
  type: "url" | "text";
  value: string;
  error: string;
  onChange: (value: string) => void;
  applyLabel: string;
  onApply: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Opened by a toolbar button: the focus goes to the field (what the person asked for), once.
  useEffect(() => input.current?.focus(), []);
  return (
    <div className="flex flex-wrap items-end gap-2 border-t border-line p-2">
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="text-sm font-semibold">
          {props.label}
        </label>
        <input
          id={id}
          type={props.type}
          ref={input}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              props.onApply();
            }
            if (e.key === "Escape") {
              e.preventDefault();
              props.onClose();
            }
          }}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${id}-error` : undefined}
          className={inputClass}
        />
        {props.error ? (
          <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-error">
            {props.error}
          </p>
        ) : null}
      </div>
      <button type="button" className={btnPrimary} onClick={props.onApply}>
        {props.applyLabel}
      </button>
      <button type="button" className={btnSecondary} onClick={props.onClose}>
        Cancel
      </button>
    </div>
  );
}

function Toolbar({ editor, controls, list }: { editor: Editor; controls: string; list: boolean }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      quote: e.isActive("blockquote"),
      link: e.isActive("link"),
      href: (e.getAttributes("link").href as string | undefined) ?? "",
      pictureSelected: selectedPicture(e.state.selection) !== null,
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const [linkOpen, setLinkOpen] = useState(false);
  // The "Insert picture" dialog: each opening a new element (dialog-openings.ts).
  const pictureDialog = useDialogOpenings();
  const pictureButton = useRef<HTMLButtonElement>(null);
  const [href, setHref] = useState("");
  const [linkError, setLinkError] = useState("");
  const [altOpen, setAltOpen] = useState(false);
  const [alt, setAlt] = useState("");
  const [altError, setAltError] = useState("");
  const chain = () => editor.chain().focus();

  /** A picture already in the body gets a new description (required, as when it was inserted). */
  function applyAlt() {
    if (!selectedPicture(editor.state.selection)) {
      setAltError("Select the picture in the body first, then change its description.");
      return;
    }
    const checked = checkAlt(alt);
    if (!checked.ok) {
      setAltError(checked.message);
      return;
    }
    chain().updateAttributes("image", { alt: checked.alt }).run();
    setAltOpen(false);
    setAltError("");
  }

  function applyLink() {
    if (!href.trim()) {
      chain().extendMarkRange("link").unsetLink().run();
      setLinkOpen(false);
      return;
    }
    const safe = safeHref(href);
    if (!safe) {
      setLinkError("Use a web address (https://…), an e-mail address or a phone number.");
      return;
    }
    chain().extendMarkRange("link").setLink({ href: safe }).run();
    setLinkOpen(false);
    setLinkError("");
  }

  return (
    <div className="border-b border-line bg-soft">
      <div role="toolbar" aria-label="Formatting" aria-controls={controls} className="flex flex-wrap gap-1 p-1">
        {list ? null : (
          <>
            <ToolButton label="Heading" pressed={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
              <Heading2 aria-hidden="true" className="size-5" />
            </ToolButton>
            <ToolButton label="Subheading" pressed={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
              <Heading3 aria-hidden="true" className="size-5" />
            </ToolButton>
          </>
        )}
        <ToolButton label="Bold" pressed={state.bold} onClick={() => chain().toggleBold().run()}>
          <Bold aria-hidden="true" className="size-5" />
        </ToolButton>
        <ToolButton label="Italic" pressed={state.italic} onClick={() => chain().toggleItalic().run()}>
          <Italic aria-hidden="true" className="size-5" />
        </ToolButton>
        <ToolButton label="Bulleted list" pressed={state.bullet} onClick={() => chain().toggleBulletList().run()}>
          <List aria-hidden="true" className="size-5" />
        </ToolButton>
        <ToolButton label="Numbered list" pressed={state.ordered} onClick={() => chain().toggleOrderedList().run()}>
          <ListOrdered aria-hidden="true" className="size-5" />
        </ToolButton>
        {list ? null : (
          <ToolButton label="Block quote" pressed={state.quote} onClick={() => chain().toggleBlockquote().run()}>
            <Quote aria-hidden="true" className="size-5" />
          </ToolButton>
        )}
        <ToolButton
          label="Link"
          pressed={state.link}
          onClick={() => {
            setHref(state.href);
            setLinkError("");
            setLinkOpen(!linkOpen);
          }}
        >
          <Link2 aria-hidden="true" className="size-5" />
        </ToolButton>
        {list ? null : (
          <>
            <ToolButton label="Insert picture" hasPopup="dialog" buttonRef={pictureButton} onClick={pictureDialog.open}>
              <ImagePlus aria-hidden="true" className="size-5" />
            </ToolButton>
            <ToolButton
              label="Picture description"
              pressed={altOpen}
              disabled={!state.pictureSelected && !altOpen}
              onClick={() => {
                setAlt(String(selectedPicture(editor.state.selection)?.node.attrs.alt ?? ""));
                setAltError("");
                setAltOpen(!altOpen);
              }}
            >
              <TextQuote aria-hidden="true" className="size-5" />
            </ToolButton>
          </>
        )}
        <ToolButton label="Undo" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
          <Undo2 aria-hidden="true" className="size-5" />
        </ToolButton>
        <ToolButton label="Redo" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
          <Redo2 aria-hidden="true" className="size-5" />
        </ToolButton>
      </div>
      {linkOpen ? (
        <ToolbarField
          label="Link address (leave empty to remove the link)"
          type="url"
          value={href}
          error={linkError}
          onChange={setHref}
          applyLabel="Apply link"
          onApply={applyLink}
          onClose={() => {
            setLinkOpen(false);
            editor.commands.focus();
          }}
        />
      ) : null}
      {altOpen ? (
        <ToolbarField
          label="Description of the selected picture (alt text)"
          type="text"
          value={alt}
          error={altError}
          onChange={setAlt}
          applyLabel="Apply description"
          onApply={applyAlt}
          onClose={() => {
            setAltOpen(false);
            editor.commands.focus();
          }}
        />
      ) : null}
      {pictureDialog.opening !== null ? (
        <InsertPictureDialog
          key={pictureDialog.opening}
          onInsert={(picture) => {
            pictureDialog.close();
            chain().setImage(picture).run();
            // Typing goes on after the picture (not over it): into the paragraph after it, made when there is none.
            const { selection, doc } = editor.state;
            if (selectedPicture(selection)) {
              const after = selection.to;
              if (doc.resolve(after).nodeAfter?.isTextblock)
                chain()
                  .setTextSelection(after + 1)
                  .run();
              else
                chain()
                  .insertContentAt(after, { type: "paragraph" })
                  .setTextSelection(after + 1)
                  .run();
            }
          }}
          onClose={() => {
            pictureDialog.close();
            // Back to where the focus came from: the editor after an insert, else the button.
            if (!editor.isFocused) pictureButton.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}

export default function RichTextEditor(props: Props) {
  const contentId = useId();
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: props.mode === "list" ? false : { levels: [2, 3] },
        blockquote: props.mode === "list" ? false : undefined,
        horizontalRule: props.mode === "list" ? false : undefined,
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: "https", protocols: ["mailto", "tel"] },
      }),
      ...(props.mode === "list" ? [] : [BodyPicture]),
    ],
    content: props.initialHtml,
    editorProps: {
      attributes: {
        id: contentId,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": props.labelId,
        ...(props.describedBy ? { "aria-describedby": props.describedBy } : {}),
        ...(props.invalid ? { "aria-invalid": "true" } : {}),
        class: `prose-article ${props.mode === "list" ? "min-h-32" : "min-h-64"} px-4 py-2 focus:outline-none`,
      },
    },
    onUpdate: ({ editor: e }) => props.onChange(e.isEmpty ? "" : e.getHTML()),
  });
  if (!editor) return <div className="min-h-72 rounded border border-muted bg-white" aria-hidden="true" />;
  return (
    <div
      className={`rounded border bg-white focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-accent ${props.invalid ? "border-2 border-error" : "border-muted"}`}
      data-testid="rich-text-editor"
    >
      <Toolbar editor={editor} controls={contentId} list={props.mode === "list"} />
      <EditorContent editor={editor} />
    </div>
  );
}
