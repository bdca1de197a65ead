/**
 * The e-mails sent to subscribers, made with React Email (decision 0022):
 * table-based HTML with inline styles that Outlook, Gmail and Apple Mail
 * render alike, plus a plain-text part written out here. Every message
 * identifies the firm (name, mailing address, phone, e-mail, website); a
 * message to a subscriber also carries the preferences link and the RFC 8058
 * List-Unsubscribe headers (CASL s. 6(2), s. 11).
 */
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, render, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { FIRM, fullAddress } from "~/config/firm";
import { topicList } from "~/lib/forms/subscribe";
import { getEnv } from "../env";

const COLORS = { ink: "#13233a", muted: "#4a5565", accent: "#1d5c63", ground: "#faf8f4", line: "#d9d4c7", white: "#ffffff" };
const font = 'Georgia, "Times New Roman", serif';
const sans = '-apple-system, "Segoe UI", Helvetica, Arial, sans-serif';

export type RenderedMessage = { subject: string; html: string; text: string; headers?: Record<string, string> };

function siteHost(): string {
  return getEnv().publicUrl;
}

/** Who sends this (CASL identification): on every message, HTML and text alike. */
function Identification({ children }: { children?: ReactNode }) {
  return (
    <Section style={{ padding: "0 32px 32px" }}>
      <Hr style={{ borderColor: COLORS.line, margin: "0 0 16px" }} />
      {children}
      <Text style={{ color: COLORS.muted, fontFamily: sans, fontSize: "13px", lineHeight: "20px", margin: "0 0 8px" }}>
        Sent by {FIRM.name}, {fullAddress()}. Telephone {FIRM.phone}. E-mail{" "}
        <Link href={`mailto:${FIRM.email}`} style={{ color: COLORS.accent, textDecoration: "underline" }}>
          {FIRM.email}
        </Link>
        . Web{" "}
        <Link href={siteHost()} style={{ color: COLORS.accent, textDecoration: "underline" }}>
          {siteHost().replace(/^https?:\/\//, "")}
        </Link>
        .
      </Text>
    </Section>
  );
}

function identificationText(): string {
  return `Sent by ${FIRM.name}, ${fullAddress()}. Telephone ${FIRM.phone}. E-mail ${FIRM.email}. Web ${siteHost()}.`;
}

function Frame({ title, preview, children }: { title: string; preview: string; children: ReactNode }) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <title>{title}</title>
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: COLORS.ground, color: COLORS.ink, fontFamily: sans, margin: 0, padding: "24px 0" }}>
        <Container style={{ backgroundColor: COLORS.white, border: `1px solid ${COLORS.line}`, maxWidth: "600px" }}>
          <Section style={{ backgroundColor: COLORS.ink, padding: "20px 32px" }}>
            <Text style={{ color: COLORS.white, fontFamily: font, fontSize: "20px", fontWeight: 600, margin: 0 }}>{FIRM.name}</Text>
          </Section>
          {children}
        </Container>
      </Body>
    </Html>
  );
}

const paragraph = { color: COLORS.ink, fontFamily: sans, fontSize: "16px", lineHeight: "26px", margin: "0 0 16px" };
const button = {
  backgroundColor: COLORS.accent,
  color: COLORS.white,
  fontFamily: sans,
  fontSize: "15px",
  fontWeight: 600,
  padding: "12px 22px",
  textDecoration: "none",
};

/** What a message with one link says: its words, the link's button and what to do if it was not asked for. */
type OneLink = {
  subject: string;
  preview: string;
  heading: string;
  intro: string;
  /** The sentence before the button (HTML) and before the bare link (plain text). */
  ask: { html: string; text: string };
  button: string;
  url: string;
  ignore: string;
};

/** A message to someone who asked through the sign-up form: one link, with the address written out too. */
async function oneLinkMessage(m: OneLink): Promise<RenderedMessage> {
  const html = await render(
    <Frame title={m.subject} preview={m.preview}>
      <Section style={{ padding: "28px 32px 8px" }}>
        <Heading as="h1" style={{ color: COLORS.ink, fontFamily: font, fontSize: "24px", lineHeight: "32px", margin: "0 0 16px" }}>
          {m.heading}
        </Heading>
        <Text style={paragraph}>{m.intro}</Text>
        <Text style={paragraph}>{m.ask.html}</Text>
        <Section style={{ margin: "8px 0 24px" }}>
          <Button href={m.url} style={button}>
            {m.button}
          </Button>
        </Section>
        <Text style={{ ...paragraph, fontSize: "14px", color: COLORS.muted }}>
          If the button does not work, copy this address into your browser:{" "}
          <Link href={m.url} style={{ color: COLORS.accent, wordBreak: "break-all" }}>
            {m.url}
          </Link>
        </Text>
        <Text style={paragraph}>{m.ignore}</Text>
      </Section>
      <Identification />
    </Frame>,
  );
  const text = [m.heading, "", m.intro, "", m.ask.text, m.url, "", m.ignore, "", "--", identificationText(), ""].join("\n");
  return { subject: m.subject, html, text };
}

/** The double opt-in message: one link, valid 48 hours, used once. */
export function confirmationMessage(input: { confirmUrl: string; topics: readonly string[] }): Promise<RenderedMessage> {
  return oneLinkMessage({
    subject: `Please confirm your subscription to ${FIRM.name} insights`,
    preview: "Confirm your subscription: nothing is sent until you do.",
    heading: "Confirm your subscription",
    intro: `Someone, we hope you, asked to receive insights and client alerts from ${FIRM.name} at this address, on these topics: ${topicList(input.topics)}.`,
    ask: {
      html: "To confirm, open the link below and press Confirm. The link works once, for 48 hours.",
      text: "To confirm, open this link and press Confirm. The link works once, for 48 hours:",
    },
    button: "Confirm my subscription",
    url: input.confirmUrl,
    ignore: "If you did not ask for this, ignore this message: nothing will be sent to you.",
  });
}

/**
 * A request for express consent to an imported address with implied consent
 * (Subscribers: "Ask for consent"; issue 42). Itself a commercial electronic
 * message under CASL: sent only while the implied consent lasts.
 */
export function consentRequestMessage(input: { confirmUrl: string; topics: readonly string[] }): Promise<RenderedMessage> {
  return oneLinkMessage({
    subject: `May ${FIRM.name} keep sending you insights?`,
    preview: "Confirm that you want our insights by e-mail: if you do not, we will stop.",
    heading: "May we keep writing to you?",
    intro: `You are on ${FIRM.name}'s list for insights and client alerts on these topics: ${topicList(input.topics)}, because you have worked with us or asked us a question. We would like your consent to keep sending them.`,
    ask: {
      html: "To keep receiving them, open the link below and press Confirm. The link works once, for 48 hours.",
      text: "To keep receiving them, open this link and press Confirm. The link works once, for 48 hours:",
    },
    button: "Confirm my subscription",
    url: input.confirmUrl,
    ignore: `If you do not confirm, we will stop writing to you when your implied consent ends. To stop now, reply to this message or write to ${FIRM.email}.`,
  });
}

/** To a confirmed subscriber who signed up again: their preferences link (nothing changes until they use it). */
export function manageMessage(input: { preferencesUrl: string; topics: readonly string[] }): Promise<RenderedMessage> {
  return oneLinkMessage({
    subject: `Your subscription to ${FIRM.name} insights`,
    preview: "This address is already subscribed: change your topics or unsubscribe here.",
    heading: "Manage your subscription",
    intro: `Someone, we hope you, asked to subscribe this address to insights and client alerts from ${FIRM.name}. It is already subscribed, to these topics: ${topicList(input.topics)}. Nothing has changed.`,
    ask: {
      html: "To add or remove topics, or to unsubscribe, open the link below.",
      text: "To add or remove topics, or to unsubscribe, open this link:",
    },
    button: "Manage my subscription",
    url: input.preferencesUrl,
    ignore: "If you did not ask for this, ignore this message: your subscription stays as it is.",
  });
}

export type ArticleForMail = { title: string; summary: string; url: string; topicLabel: string; date: string };

/** An article sent to a subscriber, with the preferences link and the one-click unsubscribe headers. */
export async function articleMessage(
  article: ArticleForMail,
  links: { preferencesUrl: string; oneClickUrl: string },
  options: { test?: boolean } = {},
): Promise<RenderedMessage> {
  const subject = `${options.test ? "[Test] " : ""}${article.title}`;
  const html = await render(
    <Frame title={subject} preview={article.summary.slice(0, 140)}>
      <Section style={{ padding: "28px 32px 8px" }}>
        <Text
          style={{
            color: COLORS.muted,
            fontFamily: sans,
            fontSize: "13px",
            letterSpacing: "0.08em",
            margin: "0 0 8px",
            textTransform: "uppercase",
          }}
        >
          {article.topicLabel}
          {article.date ? ` · ${article.date}` : ""}
        </Text>
        <Heading as="h1" style={{ color: COLORS.ink, fontFamily: font, fontSize: "26px", lineHeight: "34px", margin: "0 0 16px" }}>
          {article.title}
        </Heading>
        {article.summary ? <Text style={paragraph}>{article.summary}</Text> : null}
        <Section style={{ margin: "8px 0 28px" }}>
          <Button href={article.url} style={button}>
            Read the article
          </Button>
        </Section>
      </Section>
      <Identification>
        <Text style={{ color: COLORS.muted, fontFamily: sans, fontSize: "13px", lineHeight: "20px", margin: "0 0 8px" }}>
          You receive this because you subscribed to {FIRM.name} insights.{" "}
          <Link href={links.preferencesUrl} style={{ color: COLORS.accent, textDecoration: "underline" }}>
            Change your topics or unsubscribe
          </Link>
          . Unsubscribing takes effect at once.
        </Text>
      </Identification>
    </Frame>,
  );
  const text = [
    `${article.topicLabel}${article.date ? ` · ${article.date}` : ""}`,
    "",
    article.title,
    "",
    ...(article.summary ? [article.summary, ""] : []),
    `Read the article: ${article.url}`,
    "",
    "--",
    `You receive this because you subscribed to ${FIRM.name} insights.`,
    `Change your topics or unsubscribe (takes effect at once): ${links.preferencesUrl}`,
    identificationText(),
    "",
  ].join("\n");
  return {
    subject,
    html,
    text,
    headers: { "List-Unsubscribe": `<${links.oneClickUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
