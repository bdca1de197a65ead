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

/** The double opt-in message: one link, valid 48 hours, used once. */
export async function confirmationMessage(input: { confirmUrl: string; topics: readonly string[] }): Promise<RenderedMessage> {
  const subject = `Please confirm your subscription to ${FIRM.name} insights`;
  const topics = topicList(input.topics);
  const html = await render(
    <Frame title={subject} preview="Confirm your subscription: nothing is sent until you do.">
      <Section style={{ padding: "28px 32px 8px" }}>
        <Heading as="h1" style={{ color: COLORS.ink, fontFamily: font, fontSize: "24px", lineHeight: "32px", margin: "0 0 16px" }}>
          Confirm your subscription
        </Heading>
        <Text style={paragraph}>
          Someone, we hope you, asked to receive insights and client alerts from {FIRM.name} at this address, on these topics: {topics}.
        </Text>
        <Text style={paragraph}>To confirm, open the link below and press Confirm. The link works once, for 48 hours.</Text>
        <Section style={{ margin: "8px 0 24px" }}>
          <Button href={input.confirmUrl} style={button}>
            Confirm my subscription
          </Button>
        </Section>
        <Text style={{ ...paragraph, fontSize: "14px", color: COLORS.muted }}>
          If the button does not work, copy this address into your browser:{" "}
          <Link href={input.confirmUrl} style={{ color: COLORS.accent, wordBreak: "break-all" }}>
            {input.confirmUrl}
          </Link>
        </Text>
        <Text style={paragraph}>If you did not ask for this, ignore this message: nothing will be sent to you.</Text>
      </Section>
      <Identification />
    </Frame>,
  );
  const text = [
    "Confirm your subscription",
    "",
    `Someone, we hope you, asked to receive insights and client alerts from ${FIRM.name} at this address, on these topics: ${topics}.`,
    "",
    "To confirm, open this link and press Confirm. The link works once, for 48 hours:",
    input.confirmUrl,
    "",
    "If you did not ask for this, ignore this message: nothing will be sent to you.",
    "",
    "--",
    identificationText(),
    "",
  ].join("\n");
  return { subject, html, text };
}

/** To a confirmed subscriber who signed up again: their preferences link (nothing changes until they use it). */
export async function manageMessage(input: { preferencesUrl: string; topics: readonly string[] }): Promise<RenderedMessage> {
  const subject = `Your subscription to ${FIRM.name} insights`;
  const topics = topicList(input.topics);
  const html = await render(
    <Frame title={subject} preview="This address is already subscribed: change your topics or unsubscribe here.">
      <Section style={{ padding: "28px 32px 8px" }}>
        <Heading as="h1" style={{ color: COLORS.ink, fontFamily: font, fontSize: "24px", lineHeight: "32px", margin: "0 0 16px" }}>
          Manage your subscription
        </Heading>
        <Text style={paragraph}>
          Someone, we hope you, asked to subscribe this address to insights and client alerts from {FIRM.name}. It is already subscribed, to
          these topics: {topics}. Nothing has changed.
        </Text>
        <Text style={paragraph}>To add or remove topics, or to unsubscribe, open the link below.</Text>
        <Section style={{ margin: "8px 0 24px" }}>
          <Button href={input.preferencesUrl} style={button}>
            Manage my subscription
          </Button>
        </Section>
        <Text style={{ ...paragraph, fontSize: "14px", color: COLORS.muted }}>
          If the button does not work, copy this address into your browser:{" "}
          <Link href={input.preferencesUrl} style={{ color: COLORS.accent, wordBreak: "break-all" }}>
            {input.preferencesUrl}
          </Link>
        </Text>
        <Text style={paragraph}>If you did not ask for this, ignore this message: your subscription stays as it is.</Text>
      </Section>
      <Identification />
    </Frame>,
  );
  const text = [
    "Manage your subscription",
    "",
    `Someone, we hope you, asked to subscribe this address to insights and client alerts from ${FIRM.name}. It is already subscribed, to these topics: ${topics}. Nothing has changed.`,
    "",
    "To add or remove topics, or to unsubscribe, open this link:",
    input.preferencesUrl,
    "",
    "If you did not ask for this, ignore this message: your subscription stays as it is.",
    "",
    "--",
    identificationText(),
    "",
  ].join("\n");
  return { subject, html, text };
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
